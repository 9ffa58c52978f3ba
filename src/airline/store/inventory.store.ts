/**
 * The {@link InventoryStore} port in SQLite: seats sold per flight-date and booking class
 * (capacities come from the world data).
 */
import type { InventoryStore, SoldSegment } from '../airline.ports';
import type { AirlineDatabase } from './airline.database';

export class SqliteInventoryStore implements InventoryStore {
  constructor(private readonly db: AirlineDatabase) {}

  sold(inventoryKey: string, rbd: string): number {
    const row = this.db.get('SELECT sold FROM inventory WHERE inventory_key = ? AND rbd = ?', [inventoryKey, rbd]);
    return row ? Number(row.sold) : 0;
  }

  soldOn(inventoryKey: string): ReadonlyMap<string, number> {
    const rows = this.db.all('SELECT rbd, sold FROM inventory WHERE inventory_key = ?', [inventoryKey]);
    return new Map(rows.map((r) => [String(r.rbd), Number(r.sold)]));
  }

  sellAll(segments: SoldSegment[], capacity: (inventoryKey: string, rbd: string) => number): boolean {
    return this.db.transaction(() => this.sellAllInTransaction(segments, capacity));
  }

  /** The body of {@link sellAll}, for callers that already hold a transaction. */
  sellAllInTransaction(segments: SoldSegment[], capacity: (inventoryKey: string, rbd: string) => number): boolean {
    // Sum seats per (key, rbd) first: two segments of one offer may share a bucket.
    const wanted = new Map<string, { key: string; rbd: string; seats: number }>();
    for (const s of segments) {
      const id = `${s.inventoryKey}\u0000${s.rbd}`;
      const w = wanted.get(id) ?? { key: s.inventoryKey, rbd: s.rbd, seats: 0 };
      w.seats += s.seats;
      wanted.set(id, w);
    }
    for (const w of wanted.values()) {
      if (this.sold(w.key, w.rbd) + w.seats > capacity(w.key, w.rbd)) return false;
    }
    for (const w of wanted.values()) {
      this.db.run(
        'INSERT INTO inventory (inventory_key, rbd, sold) VALUES (?, ?, ?) ON CONFLICT (inventory_key, rbd) DO UPDATE SET sold = sold + excluded.sold',
        [w.key, w.rbd, w.seats],
      );
    }
    return true;
  }

  /** Gives the seats of `segments` back (never below zero), inside the caller's transaction. */
  releaseInTransaction(segments: readonly SoldSegment[]): void {
    for (const seg of segments) {
      this.db.run('UPDATE inventory SET sold = MAX(0, sold - ?) WHERE inventory_key = ? AND rbd = ?', [
        seg.seats,
        seg.inventoryKey,
        seg.rbd,
      ]);
    }
  }
}
