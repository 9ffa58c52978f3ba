/**
 * The airline's embedded database: one SQLite connection ({@link AirlineDatabase}) shared by
 * an adapter per area, each beside the port it implements:
 *
 * | area | adapter | port (airline.ports.ts) |
 * |---|---|---|
 * | shopping and pricing responses | `responses` ({@link SqliteResponseStore}) | `ResponseStore` |
 * | seats sold per booking class | `inventory` ({@link SqliteInventoryStore}) | `InventoryStore` |
 * | seat maps: seats sold and locked | `seats` ({@link SqliteSeatStore}) | `SeatStore` |
 * | card tokens | `tokens` ({@link SqliteTokenStore}) | `TokenLookup` |
 * | orders | `orders` ({@link SqliteOrderStore}) | |
 * | 3-D Secure holds | `authentications` ({@link SqliteAuthenticationStore}) | |
 * | reshop answers, applied changes | `servicing` ({@link SqliteServicingStore}) | |
 * | schedule changes | `schedule` ({@link SqliteScheduleStore}) | `ScheduleChanges` (world.types.ts) |
 * | OrderChangeNotif outbox | `notifications` ({@link SqliteNotificationStore}) | |
 *
 * What spans areas is here: changing an order with its inventory and seats, ending a hold.
 */
import type { PricingRecord, SeatHold, SoldSegment } from '../airline.ports';
import { AirlineDatabase } from './airline.database';
import {
  type AuthenticationState,
  type StoredAuthentication,
  SqliteAuthenticationStore,
} from './authentications.store';
import { SqliteInventoryStore } from './inventory.store';
import { type OrderUpdate, type StoredOrder, SqliteOrderStore } from './orders.store';
import { SqliteResponseStore } from './responses.store';
import { SqliteSeatStore } from './seats.store';
import { SqliteNotificationStore } from './notifications.store';
import { SqliteScheduleStore } from './schedule.store';
import { SqliteServicingStore } from './servicing.store';
import { SqliteTokenStore } from './tokens.store';

export type { AuthenticationState, StoredAuthentication } from './authentications.store';
export type { OrderStatus, OrderUpdate, StoredCancellation, StoredOrder, StoredOrderView } from './orders.store';
export type { StoredChange } from './servicing.store';
export type { OutboxNotification } from './notifications.store';

/** What a change of an order does to inventory and seat maps. */
export interface InventoryMoves {
  /** Seats given back per flight and booking class, then sold (capacity checked). */
  release: readonly SoldSegment[];
  sell: readonly SoldSegment[];
  /** Seat map seats of the order given back, then sold (each unsold and not locked by another than `seatOwner`). */
  releaseSeats: readonly SeatHold[];
  sellSeats: readonly SeatHold[];
  seatOwner: string;
}

/** Why the moves of a change could not be made (the caller rolls back). */
export type MoveRefusal = { soldOut: 'class' } | { soldOut: 'seat'; seat: SeatHold };
export type { StoredToken } from './tokens.store';

export class AirlineStore {
  private readonly db: AirlineDatabase;
  readonly responses: SqliteResponseStore;
  readonly inventory: SqliteInventoryStore;
  readonly seats: SqliteSeatStore;
  readonly tokens: SqliteTokenStore;
  readonly orders: SqliteOrderStore;
  readonly authentications: SqliteAuthenticationStore;
  readonly servicing: SqliteServicingStore;
  readonly schedule: SqliteScheduleStore;
  readonly notifications: SqliteNotificationStore;

  /** Opens (and creates, with its folder) the database at `path`; `:memory:` for tests. */
  constructor(readonly path: string) {
    this.db = new AirlineDatabase(path);
    this.responses = new SqliteResponseStore(this.db);
    this.inventory = new SqliteInventoryStore(this.db);
    this.seats = new SqliteSeatStore(this.db);
    this.tokens = new SqliteTokenStore(this.db);
    this.orders = new SqliteOrderStore(this.db);
    this.authentications = new SqliteAuthenticationStore(this.db);
    this.servicing = new SqliteServicingStore(this.db);
    this.schedule = new SqliteScheduleStore(this.db);
    this.notifications = new SqliteNotificationStore(this.db);
  }

  /** Closes the database and frees the wasm memory. Idempotent. */
  close(): void {
    this.db.close();
  }

  /** Runs `fn` in one IMMEDIATE transaction of every area; rolls back if it throws or returns false. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  /**
   * Moves the inventory and seats of order `orderId` as `moves` says and writes `update` over it
   * at `version`, inside the caller's transaction. Returns why the moves could not be made (a
   * booking class or a seat no longer to be had; the caller throws and rolls back), `false` when
   * the order is no longer at `version`, `true` when done.
   */
  reviseOrderInTransaction(
    orderId: string,
    version: number,
    update: OrderUpdate,
    moves: InventoryMoves,
    capacity: (inventoryKey: string, rbd: string) => number,
    now: string,
  ): boolean | MoveRefusal {
    if (!this.orders.updateInTransaction(orderId, version, update)) return false;
    this.inventory.releaseInTransaction(moves.release);
    this.seats.releaseSeatsInTransaction(orderId, moves.releaseSeats);
    if (!this.inventory.sellAllInTransaction([...moves.sell], capacity)) return { soldOut: 'class' };
    const lost = this.seats.sellSeatsInTransaction(moves.sellSeats, moves.seatOwner, orderId, now);
    return lost ? { soldOut: 'seat', seat: lost } : true;
  }

  /**
   * Ends pending hold `a` as `state` (with `orderId` when ordered); false when it is no longer
   * pending. Call inside a transaction; a hold that did not become an order gives its seats back.
   */
  endAuthentication(
    a: StoredAuthentication,
    state: Exclude<AuthenticationState, 'pending'>,
    orderId?: string,
  ): boolean {
    if (!this.authentications.endInTransaction(a.spmRef, state, orderId)) return false;
    if (state !== 'ordered') this.inventory.releaseInTransaction(a.segments);
    return true;
  }

  // What other parts' tests look up and set up in the airline (test/workflows, test/api, ...);
  // the airline itself uses the adapters.

  /** {@link SqliteOrderStore.ordersByShoppingResponse}. */
  ordersByShoppingResponse(shoppingResponseId: string): StoredOrder[] {
    return this.orders.ordersByShoppingResponse(shoppingResponseId);
  }

  /** {@link SqliteOrderStore.getOrder}. */
  getOrder(orderId: string): StoredOrder | undefined {
    return this.orders.getOrder(orderId);
  }

  /** {@link SqliteResponseStore.getPricing}. */
  getPricing(responseId: string): PricingRecord | undefined {
    return this.responses.getPricing(responseId);
  }

  /** {@link SqliteInventoryStore.sold}. */
  sold(inventoryKey: string, rbd: string): number {
    return this.inventory.sold(inventoryKey, rbd);
  }

  /** {@link SqliteInventoryStore.sellAll}. */
  sellAll(segments: SoldSegment[], capacity: (inventoryKey: string, rbd: string) => number): boolean {
    return this.inventory.sellAll(segments, capacity);
  }

  /** {@link SqliteSeatStore.lockSeats}. */
  lockSeats(seats: readonly SeatHold[], owner: string, now: string, expiresAt: string): SeatHold[] {
    return this.seats.lockSeats(seats, owner, now, expiresAt);
  }

  /** {@link SqliteSeatStore.sellSeatsInTransaction}. */
  sellSeatsInTransaction(
    seats: readonly SeatHold[],
    owner: string,
    orderId: string,
    now: string,
  ): SeatHold | undefined {
    return this.seats.sellSeatsInTransaction(seats, owner, orderId, now);
  }
}
