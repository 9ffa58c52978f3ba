/**
 * The airline's schedule changes in SQLite (`schedule_changes`, docs/airline-service.md,
 * "Schedule changes"): per flight and scheduled date, a retime or a cancellation. The world reads
 * them on every dated flight, so they are kept in memory too (this process owns the file: its
 * writes are the only ones).
 */
import type { FlightChange, ScheduleChanges } from '../world/world.types';
import { type AirlineDatabase, jsonBytes } from './airline.database';

export class SqliteScheduleStore implements ScheduleChanges {
  private readonly changes = new Map<string, FlightChange>();

  constructor(private readonly db: AirlineDatabase) {
    for (const row of db.all('SELECT flight, date, change FROM schedule_changes', []))
      this.changes.set(key(String(row.flight), String(row.date)), JSON.parse(String(row.change)) as FlightChange);
  }

  changeOf(number: string, date: string): FlightChange | undefined {
    return this.changes.get(key(number, date));
  }

  /**
   * Records `change` of flight `number` on `date` inside the caller's transaction, in memory at
   * once (the orders revised in the same transaction are dated with it): a retime adds to an
   * earlier retime, a cancellation stands for good. A caller whose transaction rolls back calls
   * {@link SqliteScheduleStore.reload}.
   */
  saveInTransaction(number: string, date: string, change: FlightChange, now: string): FlightChange {
    const before = this.changes.get(key(number, date));
    const next: FlightChange =
      change.kind === 'retime' && before?.kind === 'retime'
        ? { kind: 'retime', shiftMinutes: before.shiftMinutes + change.shiftMinutes }
        : before?.kind === 'cancelled'
          ? before
          : change;
    this.db.run(
      'INSERT INTO schedule_changes (flight, date, change, changed_at) VALUES (?, ?, CAST(? AS TEXT), ?) ' +
        'ON CONFLICT (flight, date) DO UPDATE SET change = excluded.change, changed_at = excluded.changed_at',
      [number, date, jsonBytes(next), now],
    );
    this.changes.set(key(number, date), next);
    return next;
  }

  /** Reads flight `number` on `date` back from the file (after a transaction wrote or rolled back). */
  reload(number: string, date: string): void {
    const row = this.db.get('SELECT change FROM schedule_changes WHERE flight = ? AND date = ?', [number, date]);
    if (row) this.changes.set(key(number, date), JSON.parse(String(row.change)) as FlightChange);
    else this.changes.delete(key(number, date));
  }
}

function key(number: string, date: string): string {
  return `${number}/${date}`;
}
