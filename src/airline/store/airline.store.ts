/**
 * The airline's embedded database (SQLite through node-sqlite3-wasm, pure
 * wasm): orders, card tokens, shopping and pricing responses and seat
 * inventory. Implements the domain ports {@link ResponseStore},
 * {@link InventoryStore} and {@link TokenLookup}.
 *
 * Every method is synchronous. Node runs JavaScript on one thread, so a
 * synchronous check-then-write inside one SQLite transaction cannot interleave
 * with another request: that is what makes {@link AirlineStore.sellAll} safe
 * under concurrent orders.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Database, type Statement } from 'node-sqlite3-wasm';
import type {
  InventoryStore,
  PricingRecord,
  ResponseStore,
  SeatHold,
  SeatStore,
  ShoppingRecord,
  SoldSegment,
  TokenInfo,
  TokenLookup,
  CardFunding,
} from '../airline.ports';
import type {
  ContactInformation,
  CustomerInputRq,
  Money,
  OrderCreateRq,
  OrderPayment,
  OrderViewRs,
  Passenger,
} from '../../ndc/ndc.model';

/** A stored card token. The card number is only held encrypted; the CVV never. */
export interface StoredToken extends TokenInfo {
  createdAt: string;
  /** AES-256-GCM ciphertext of the card number: base64 of iv(12) | tag(16) | data. */
  panCiphertext: string;
}

/** A stored order with what is needed to find it again and show it. */
export interface StoredOrder {
  orderId: string;
  bookingReference: string;
  agencyId: string;
  shoppingResponseId: string;
  pricingResponseId: string;
  createdAt: string;
  /** The OrderViewRS model as returned by OrderCreate (header attributes are set per response). */
  view: Extract<OrderViewRs, { kind: 'success' }>;
  /** Passengers, contacts and payments of the OrderCreateRQ, to recognise a repeated request. */
  request?: { passengers: Passenger[]; contacts: ContactInformation[]; payments: OrderPayment[] };
  /** Set once the order is cancelled (its view then has the cancelled status code). */
  cancellation?: StoredCancellation;
}

/** What a cancel of an order did. */
export interface StoredCancellation {
  cancelledAt: string;
  kind: 'void' | 'cancel';
  fee: Money;
  refund: Money;
}

/** State of a 3-D Secure hold: waiting for the cardholder, or how it ended. */
export type AuthenticationState = 'pending' | 'ordered' | 'declined' | 'expired';

/**
 * An OrderCreate waiting for 3-D Secure: the request to order once the cardholder is
 * authenticated, the challenge it was answered with, and the seats it holds.
 */
export interface StoredAuthentication {
  /** The airline's transaction reference (`SPM_TxnReference`), also the id in the ACS_URL. */
  spmRef: string;
  /** `OriginalTransactionID`: the OrderCreateRQ's TransactionIdentifier. */
  originalTransactionId: string;
  agencyId: string;
  pricingResponseId: string;
  createdAt: string;
  expiresAt: string;
  state: AuthenticationState;
  /** Set once `state` is `ordered`. */
  orderId?: string;
  /** The cardholder's decision on the issuer page (`Y` or `N`), once made: it is final. */
  acsStatus?: 'Y' | 'N';
  /** `challenge`: the cardholder decides; `fail`: authentication always fails (test card 4000000000003063). */
  mode: 'challenge' | 'fail';
  /** Shown on the issuer page. */
  lastFour: string;
  amount: Money;
  /** The OrderCreateRQ to order from (token id, never a card number). */
  request: OrderCreateRq;
  /** The CustomerInputRQ it was answered with (repeated for an identical retry). */
  challenge: CustomerInputRq;
  segments: SoldSegment[];
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS authentications (
  spm_ref TEXT PRIMARY KEY,
  pricing_response_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  state TEXT NOT NULL,
  order_id TEXT,
  acs_status TEXT,
  record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS authentications_by_state ON authentications (state, expires_at);
CREATE INDEX IF NOT EXISTS authentications_by_pricing ON authentications (pricing_response_id, state);
CREATE TABLE IF NOT EXISTS shopping_responses (
  response_id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pricing_responses (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  response_id TEXT NOT NULL UNIQUE,
  shopping_response_id TEXT NOT NULL,
  agency_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS priced_offers (
  offer_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  response_id TEXT NOT NULL,
  PRIMARY KEY (offer_id, seq)
);
CREATE TABLE IF NOT EXISTS inventory (
  inventory_key TEXT NOT NULL,
  rbd TEXT NOT NULL,
  sold INTEGER NOT NULL,
  PRIMARY KEY (inventory_key, rbd)
);
CREATE TABLE IF NOT EXISTS card_tokens (
  id TEXT PRIMARY KEY,
  brand TEXT NOT NULL,
  funding TEXT NOT NULL,
  masked_number TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  pan_ciphertext TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
  order_id TEXT PRIMARY KEY,
  booking_reference TEXT NOT NULL UNIQUE,
  agency_id TEXT NOT NULL,
  shopping_response_id TEXT NOT NULL,
  pricing_response_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  view TEXT NOT NULL,
  request TEXT,
  cancellation TEXT
);
CREATE TABLE IF NOT EXISTS seat_assignments (
  inventory_key TEXT NOT NULL,
  seat TEXT NOT NULL,
  order_id TEXT NOT NULL,
  PRIMARY KEY (inventory_key, seat)
);
CREATE TABLE IF NOT EXISTS seat_locks (
  inventory_key TEXT NOT NULL,
  seat TEXT NOT NULL,
  owner TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (inventory_key, seat)
);
CREATE INDEX IF NOT EXISTS orders_by_shopping ON orders (shopping_response_id, agency_id);
CREATE INDEX IF NOT EXISTS orders_by_pricing ON orders (pricing_response_id);
`;

type Row = Record<string, unknown>;

/**
 * A value as JSON for a TEXT column, as UTF-8 bytes: the SQL binds it with
 * `CAST(? AS TEXT)`, which stores the same TEXT a string parameter would. Node
 * encodes the bytes natively; a string parameter would go through
 * node-sqlite3-wasm's character-by-character UTF-8 encoder in JavaScript, about
 * half the CPU time of inserting a 2.7 KB shopping record.
 */
function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export class AirlineStore implements ResponseStore, InventoryStore, TokenLookup, SeatStore {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();

  /** Opens (and creates, with its folder) the database at `path`; `:memory:` for tests. */
  constructor(readonly path: string) {
    const onDisk = path !== ':memory:';
    if (onDisk) {
      mkdirSync(dirname(path), { recursive: true });
      removeStaleLock(path);
    }
    this.db = new Database(path);
    // One airline process owns the file (EXCLUSIVE), which lets WAL work without shared
    // memory; with synchronous NORMAL a commit survives a process crash and only
    // checkpoints fsync (the last commits may be lost on power failure).
    this.db.exec('PRAGMA locking_mode = EXCLUSIVE;');
    if (path !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL;');
    this.db.exec('PRAGMA synchronous = NORMAL;');
    this.db.exec(SCHEMA);
    // Files written before OrderCancel existed lack the column.
    const columns = this.db.all('PRAGMA table_info(orders)') as Row[];
    if (!columns.some((c) => c.name === 'cancellation'))
      this.db.exec('ALTER TABLE orders ADD COLUMN cancellation TEXT');
    if (onDisk) writeFileSync(`${path}.owner`, String(process.pid));
  }

  /** Closes the database and frees the wasm memory. Idempotent. */
  close(): void {
    if (!this.db.isOpen) return;
    for (const s of this.statements.values()) s.finalize();
    this.statements.clear();
    this.db.close();
    if (this.path !== ':memory:') rmSync(`${this.path}.owner`, { force: true });
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private get(sql: string, values: (string | number)[]): Row | undefined {
    return (this.stmt(sql).get(values) as Row | null) ?? undefined;
  }

  private run(sql: string, values: (string | number | Uint8Array | null)[]): number {
    return this.stmt(sql).run(values).changes;
  }

  /** Runs `fn` in one IMMEDIATE transaction; rolls back if it throws or returns false. */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      if (result === false) this.db.exec('ROLLBACK');
      else this.db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  // ------------------------------------------------------------ ResponseStore

  /** Saves a shopping response (committed before the answer is sent). */
  saveShopping(record: ShoppingRecord): void {
    this.run(
      'INSERT OR REPLACE INTO shopping_responses (response_id, agency_id, created_at, expires_at, record) VALUES (?, ?, ?, ?, CAST(? AS TEXT))',
      [record.responseId, record.agencyId, record.createdAt, record.expiresAt, jsonBytes(record)],
    );
  }

  getShopping(responseId: string): ShoppingRecord | undefined {
    const row = this.get('SELECT record FROM shopping_responses WHERE response_id = ?', [responseId]);
    return row ? (JSON.parse(String(row.record)) as ShoppingRecord) : undefined;
  }

  savePricing(record: PricingRecord): void {
    this.transaction(() => {
      this.run(
        'INSERT OR REPLACE INTO pricing_responses (response_id, shopping_response_id, agency_id, created_at, expires_at, record) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT))',
        [
          record.responseId,
          record.shoppingResponseId,
          record.agencyId,
          record.createdAt,
          record.expiresAt,
          jsonBytes(record),
        ],
      );
      const seq = Number(this.get('SELECT seq FROM pricing_responses WHERE response_id = ?', [record.responseId])?.seq);
      const offerIds = new Set([...record.requestedOfferIds, record.pricedOffer.offerId]);
      for (const offerId of offerIds) {
        this.run('INSERT OR REPLACE INTO priced_offers (offer_id, seq, response_id) VALUES (?, ?, ?)', [
          offerId,
          seq,
          record.responseId,
        ]);
      }
      return true;
    });
  }

  /** Rewrites the record of pricing response `record.responseId`, its place among the pricings unchanged; inside {@link transaction}. */
  updatePricingInTransaction(record: PricingRecord): void {
    this.run('UPDATE pricing_responses SET record = CAST(? AS TEXT) WHERE response_id = ?', [
      jsonBytes(record),
      record.responseId,
    ]);
  }

  getPricing(responseId: string): PricingRecord | undefined {
    const row = this.get('SELECT record FROM pricing_responses WHERE response_id = ?', [responseId]);
    return row ? (JSON.parse(String(row.record)) as PricingRecord) : undefined;
  }

  latestPricingFor(offerId: string): string | undefined {
    const row = this.get('SELECT response_id FROM priced_offers WHERE offer_id = ? ORDER BY seq DESC LIMIT 1', [
      offerId,
    ]);
    return row ? String(row.response_id) : undefined;
  }

  // ------------------------------------------------------------ InventoryStore

  sold(inventoryKey: string, rbd: string): number {
    const row = this.get('SELECT sold FROM inventory WHERE inventory_key = ? AND rbd = ?', [inventoryKey, rbd]);
    return row ? Number(row.sold) : 0;
  }

  soldOn(inventoryKey: string): ReadonlyMap<string, number> {
    const rows = this.stmt('SELECT rbd, sold FROM inventory WHERE inventory_key = ?').all([inventoryKey]) as Row[];
    return new Map(rows.map((r) => [String(r.rbd), Number(r.sold)]));
  }

  sellAll(segments: SoldSegment[], capacity: (inventoryKey: string, rbd: string) => number): boolean {
    return this.transaction(() => this.sellAllInTransaction(segments, capacity));
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
      this.run(
        'INSERT INTO inventory (inventory_key, rbd, sold) VALUES (?, ?, ?) ON CONFLICT (inventory_key, rbd) DO UPDATE SET sold = sold + excluded.sold',
        [w.key, w.rbd, w.seats],
      );
    }
    return true;
  }

  // ------------------------------------------------------------ seats

  /**
   * Seats of `inventoryKey` that `owner` cannot have: sold in an order, or locked by another
   * owner until after `now` (ISO 8601).
   */
  takenSeats(inventoryKey: string, owner: string | undefined, now: string): Set<string> {
    const sold = this.stmt('SELECT seat FROM seat_assignments WHERE inventory_key = ?').all([inventoryKey]) as Row[];
    const locked = this.stmt(
      'SELECT seat FROM seat_locks WHERE inventory_key = ? AND owner <> ? AND expires_at > ?',
    ).all([inventoryKey, owner ?? '', now]) as Row[];
    return new Set([...sold, ...locked].map((r) => String(r.seat)));
  }

  /**
   * Locks `seats` to `owner` until `expiresAt`, in one transaction, after releasing the owner's
   * other locks on the same flights. Returns the seats it could not lock (sold, or locked by
   * another owner until after `now`); the others are locked.
   */
  lockSeats(seats: readonly SeatHold[], owner: string, now: string, expiresAt: string): SeatHold[] {
    return this.transaction(() => {
      for (const key of new Set(seats.map((x) => x.inventoryKey))) {
        this.run('DELETE FROM seat_locks WHERE inventory_key = ? AND owner = ?', [key, owner]);
      }
      const refused: SeatHold[] = [];
      for (const hold of seats) {
        if (this.takenSeats(hold.inventoryKey, owner, now).has(hold.seat)) {
          refused.push(hold);
          continue;
        }
        this.run(
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
      this.run('INSERT INTO seat_assignments (inventory_key, seat, order_id) VALUES (?, ?, ?)', [
        hold.inventoryKey,
        hold.seat,
        orderId,
      ]);
      this.run('DELETE FROM seat_locks WHERE inventory_key = ? AND seat = ?', [hold.inventoryKey, hold.seat]);
    }
    return undefined;
  }

  // ------------------------------------------------------------ tokens

  saveToken(token: StoredToken): void {
    this.run(
      'INSERT INTO card_tokens (id, brand, funding, masked_number, expires_at, created_at, pan_ciphertext) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [token.id, token.brand, token.funding, token.maskedNumber, token.expiresAt, token.createdAt, token.panCiphertext],
    );
  }

  getToken(id: string): TokenInfo | undefined {
    const row = this.get('SELECT id, brand, funding, masked_number, expires_at FROM card_tokens WHERE id = ?', [id]);
    if (!row) return undefined;
    return {
      id: String(row.id),
      brand: String(row.brand),
      funding: String(row.funding) as CardFunding,
      maskedNumber: String(row.masked_number),
      expiresAt: String(row.expires_at),
    };
  }

  // ------------------------------------------------------------ orders

  /** True when `bookingReference` is already used by an order. */
  bookingReferenceTaken(bookingReference: string): boolean {
    return this.get('SELECT 1 AS x FROM orders WHERE booking_reference = ?', [bookingReference]) !== undefined;
  }

  saveOrder(order: StoredOrder): void {
    this.run(
      'INSERT INTO orders (order_id, booking_reference, agency_id, shopping_response_id, pricing_response_id, created_at, view, request) VALUES (?, ?, ?, ?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT))',
      [
        order.orderId,
        order.bookingReference,
        order.agencyId,
        order.shoppingResponseId,
        order.pricingResponseId,
        order.createdAt,
        jsonBytes(order.view),
        order.request ? jsonBytes(order.request) : null,
      ],
    );
  }

  /**
   * Marks `orderId` cancelled with `view` (its cancelled OrderViewRS) and
   * gives the seats of `segments` back to inventory, in one transaction;
   * false (and nothing changed) when it was already cancelled.
   */
  cancelOrder(
    orderId: string,
    view: StoredOrder['view'],
    cancellation: StoredCancellation,
    segments: SoldSegment[],
  ): boolean {
    return this.transaction(() => {
      const changed = this.run(
        'UPDATE orders SET view = CAST(? AS TEXT), cancellation = CAST(? AS TEXT) WHERE order_id = ? AND cancellation IS NULL',
        [jsonBytes(view), jsonBytes(cancellation), orderId],
      );
      if (changed !== 1) return false;
      this.run('DELETE FROM seat_assignments WHERE order_id = ?', [orderId]);
      for (const seg of segments) {
        this.run('UPDATE inventory SET sold = MAX(0, sold - ?) WHERE inventory_key = ? AND rbd = ?', [
          seg.seats,
          seg.inventoryKey,
          seg.rbd,
        ]);
      }
      return true;
    });
  }

  /** The first order created from pricing response `pricingResponseId`, if any. */
  orderByPricingResponse(pricingResponseId: string): StoredOrder | undefined {
    return this.toOrder(
      this.get('SELECT * FROM orders WHERE pricing_response_id = ? ORDER BY created_at LIMIT 1', [pricingResponseId]),
    );
  }

  getOrder(orderId: string): StoredOrder | undefined {
    return this.toOrder(this.get('SELECT * FROM orders WHERE order_id = ?', [orderId]));
  }

  /** Orders created from offers of shopping response `shoppingResponseId`, oldest first. */
  ordersByShoppingResponse(shoppingResponseId: string): StoredOrder[] {
    const rows = this.stmt('SELECT * FROM orders WHERE shopping_response_id = ? ORDER BY created_at, order_id').all([
      shoppingResponseId,
    ]) as Row[];
    return rows.map((r) => this.toOrder(r)!);
  }

  // ------------------------------------------------------------ 3-D Secure holds

  /** Card number ciphertext of token `id` (for the airline's own checks, never sent anywhere). */
  tokenCiphertext(id: string): string | undefined {
    const row = this.get('SELECT pan_ciphertext FROM card_tokens WHERE id = ?', [id]);
    return row ? String(row.pan_ciphertext) : undefined;
  }

  /** Stores a new hold; call inside the transaction that sold its seats. */
  saveAuthentication(a: StoredAuthentication): void {
    this.run(
      'INSERT INTO authentications (spm_ref, pricing_response_id, expires_at, state, order_id, record) VALUES (?, ?, ?, ?, NULL, CAST(? AS TEXT))',
      [
        a.spmRef,
        a.pricingResponseId,
        a.expiresAt,
        a.state,
        jsonBytes({ ...a, state: undefined, orderId: undefined, acsStatus: undefined }),
      ],
    );
  }

  getAuthentication(spmRef: string): StoredAuthentication | undefined {
    return this.toAuthentication(this.get('SELECT * FROM authentications WHERE spm_ref = ?', [spmRef]));
  }

  /** The pending hold of pricing response `pricingResponseId`, if any. */
  pendingAuthenticationFor(pricingResponseId: string): StoredAuthentication | undefined {
    return this.toAuthentication(
      this.get("SELECT * FROM authentications WHERE pricing_response_id = ? AND state = 'pending' LIMIT 1", [
        pricingResponseId,
      ]),
    );
  }

  /** Pending holds whose window ended at or before `nowIso`. */
  expiredAuthentications(nowIso: string): StoredAuthentication[] {
    const rows = this.stmt("SELECT * FROM authentications WHERE state = 'pending' AND expires_at <= ?").all([
      nowIso,
    ]) as Row[];
    return rows.map((r) => this.toAuthentication(r)!);
  }

  /**
   * Ends pending hold `spmRef` as `state` (with `orderId` when ordered); false when it is no
   * longer pending. Call inside a transaction; a hold that did not become an order gives its
   * seats back here.
   */
  endAuthentication(
    a: StoredAuthentication,
    state: Exclude<AuthenticationState, 'pending'>,
    orderId?: string,
  ): boolean {
    const changed = this.run(
      "UPDATE authentications SET state = ?, order_id = ? WHERE spm_ref = ? AND state = 'pending'",
      [state, orderId ?? null, a.spmRef],
    );
    if (changed !== 1) return false;
    if (state !== 'ordered') {
      for (const seg of a.segments) {
        this.run('UPDATE inventory SET sold = MAX(0, sold - ?) WHERE inventory_key = ? AND rbd = ?', [
          seg.seats,
          seg.inventoryKey,
          seg.rbd,
        ]);
      }
    }
    return true;
  }

  /** Records the issuer page's decision of pending hold `spmRef` unless one was made; the decision in force. */
  decideAuthentication(spmRef: string, status: 'Y' | 'N'): 'Y' | 'N' | undefined {
    this.run(
      "UPDATE authentications SET acs_status = ? WHERE spm_ref = ? AND acs_status IS NULL AND state = 'pending'",
      [status, spmRef],
    );
    return this.getAuthentication(spmRef)?.acsStatus;
  }

  private toAuthentication(row: Row | undefined): StoredAuthentication | undefined {
    if (!row) return undefined;
    const a = JSON.parse(String(row.record)) as StoredAuthentication;
    a.state = String(row.state) as AuthenticationState;
    if (row.order_id) a.orderId = String(row.order_id);
    if (row.acs_status) a.acsStatus = String(row.acs_status) as 'Y' | 'N';
    return a;
  }

  private toOrder(row: Row | undefined): StoredOrder | undefined {
    if (!row) return undefined;
    return {
      orderId: String(row.order_id),
      bookingReference: String(row.booking_reference),
      agencyId: String(row.agency_id),
      shoppingResponseId: String(row.shopping_response_id),
      pricingResponseId: String(row.pricing_response_id),
      createdAt: String(row.created_at),
      view: JSON.parse(String(row.view)) as StoredOrder['view'],
      request: row.request ? (JSON.parse(String(row.request)) as StoredOrder['request']) : undefined,
      cancellation: row.cancellation ? (JSON.parse(String(row.cancellation)) as StoredCancellation) : undefined,
    };
  }
}

/**
 * node-sqlite3-wasm locks a database with a `<path>.lock` directory, which a
 * killed process leaves behind. The store records its pid in `<path>.owner`;
 * a lock whose owner process no longer exists is removed before opening.
 */
function removeStaleLock(path: string): void {
  const lock = `${path}.lock`;
  const owner = `${path}.owner`;
  if (!existsSync(lock) || !existsSync(owner)) return;
  const pid = Number(readFileSync(owner, 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') rmSync(lock, { recursive: true, force: true });
  }
}
