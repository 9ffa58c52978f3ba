/**
 * The {@link SeatStore} port in SQLite: seats sold in orders (`seat_assignments`) and seats
 * locked to a pricing's transaction (`seat_locks`).
 */
import type { SeatHold, SeatStore } from '../airline.ports';
import type { AirlineDatabase } from './airline.database';

export class SqliteSeatStore implements SeatStore {
  constructor(private readonly db: AirlineDatabase) {}

  /**
   * Seats of `inventoryKey` that `owner` cannot have: sold in an order, or locked by another
   * owner until after `now` (ISO 8601).
   */
  takenSeats(inventoryKey: string, owner: string | undefined, now: string): Set<string> {
    const sold = this.db.all('SELECT seat FROM seat_assignments WHERE inventory_key = ?', [inventoryKey]);
    const locked = this.db.all(
      'SELECT seat FROM seat_locks WHERE inventory_key = ? AND owner <> ? AND expires_at > ?',
      [inventoryKey, owner ?? '', now],
    );
    return new Set([...sold, ...locked].map((r) => String(r.seat)));
  }

  /**
   * Locks `seats` to `owner` until `expiresAt`, in one transaction, after releasing the owner's
   * other locks on the same flights. Returns the seats it could not lock (sold, or locked by
   * another owner until after `now`); the others are locked.
   */
  lockSeats(seats: readonly SeatHold[], owner: string, now: string, expiresAt: string): SeatHold[] {
    return this.db.transaction(() => {
      for (const key of new Set(seats.map((x) => x.inventoryKey))) {
        this.db.run('DELETE FROM seat_locks WHERE inventory_key = ? AND owner = ?', [key, owner]);
      }
      const refused: SeatHold[] = [];
      for (const hold of seats) {
        if (this.takenSeats(hold.inventoryKey, owner, now).has(hold.seat)) {
          refused.push(hold);
          continue;
        }
        this.db.run(
          'INSERT INTO seat_locks (inventory_key, seat, owner, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (inventory_key, seat) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at',
          [hold.inventoryKey, hold.seat, owner, expiresAt],
        );
      }
      return refused;
    });
  }

  /**
   * Sells `seats` to order `orderId` inside the caller's transaction: each must be unsold and not
   * locked by another owner than `owner` until after `now`. Returns the first seat that cannot be
   * sold (then the caller rolls back), or undefined when all are sold; their locks are released.
   */
  sellSeatsInTransaction(
    seats: readonly SeatHold[],
    owner: string,
    orderId: string,
    now: string,
  ): SeatHold | undefined {
    for (const hold of seats) {
      if (this.takenSeats(hold.inventoryKey, owner, now).has(hold.seat)) return hold;
      this.db.run('INSERT INTO seat_assignments (inventory_key, seat, order_id) VALUES (?, ?, ?)', [
        hold.inventoryKey,
        hold.seat,
        orderId,
      ]);
      this.db.run('DELETE FROM seat_locks WHERE inventory_key = ? AND seat = ?', [hold.inventoryKey, hold.seat]);
    }
    return undefined;
  }

  /** Frees `seats` sold to order `orderId` (others' seats are left alone), inside the caller's transaction. */
  releaseSeatsInTransaction(orderId: string, seats: readonly SeatHold[]): void {
    for (const hold of seats) {
      this.db.run('DELETE FROM seat_assignments WHERE inventory_key = ? AND seat = ? AND order_id = ?', [
        hold.inventoryKey,
        hold.seat,
        orderId,
      ]);
    }
  }

  /** Frees the seats sold to order `orderId`, inside the caller's transaction. */
  releaseOrderInTransaction(orderId: string): void {
    this.db.run('DELETE FROM seat_assignments WHERE order_id = ?', [orderId]);
  }
}
