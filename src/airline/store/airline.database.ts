/**
 * The airline's SQLite connection (node-sqlite3-wasm, pure wasm), shared by the store's
 * adapters (airline.store.ts): opening the file (folder created, a stale lock removed, WAL
 * with exclusive locking), the schema, cached prepared statements and transactions.
 *
 * Every method is synchronous. Node runs JavaScript on one thread, so a synchronous
 * check-then-write inside one SQLite transaction cannot interleave with another request:
 * that is what makes selling seats safe under concurrent orders.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Database, type Statement } from 'node-sqlite3-wasm';

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
CREATE TABLE IF NOT EXISTS reshop_responses (
  response_id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL,
  agency_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS order_changes (
  order_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  version INTEGER NOT NULL,
  applied_at TEXT NOT NULL,
  view TEXT NOT NULL,
  PRIMARY KEY (order_id, transaction_id)
);
CREATE TABLE IF NOT EXISTS schedule_changes (
  flight TEXT NOT NULL,
  date TEXT NOT NULL,
  change TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  PRIMARY KEY (flight, date)
);
CREATE TABLE IF NOT EXISTS order_notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  agency_id TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  delivered_at TEXT,
  last_error TEXT,
  UNIQUE (order_id, version)
);
CREATE INDEX IF NOT EXISTS order_notifications_pending ON order_notifications (delivered_at, next_attempt_at);
`;

/**
 * Columns of `orders` added after the table first shipped, each with its type and default: a file
 * written by an earlier version gets them when opened (its orders are live, at version 1).
 */
const ORDER_COLUMNS_ADDED: readonly (readonly [string, string])[] = [
  ['cancellation', 'TEXT'],
  ['status', "TEXT NOT NULL DEFAULT 'live'"],
  ['version', 'INTEGER NOT NULL DEFAULT 1'],
  ['payment_due_at', 'TEXT'],
  ['content', 'TEXT'],
  ['change_action_by', 'TEXT'],
];

/** A row as node-sqlite3-wasm returns it. */
export type Row = Record<string, unknown>;

/** A value bound to a statement parameter. */
export type SqlValue = string | number | Uint8Array | null;

/**
 * A value as JSON for a TEXT column, as UTF-8 bytes: the SQL binds it with
 * `CAST(? AS TEXT)`, which stores the same TEXT a string parameter would. Node
 * encodes the bytes natively; a string parameter would go through
 * node-sqlite3-wasm's character-by-character UTF-8 encoder in JavaScript, about
 * half the CPU time of inserting a 2.7 KB shopping record.
 */
export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export class AirlineDatabase {
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
    if (onDisk) this.db.exec('PRAGMA journal_mode = WAL;');
    this.db.exec('PRAGMA synchronous = NORMAL;');
    this.db.exec(SCHEMA);
    this.addMissingOrderColumns();
    if (onDisk) writeFileSync(`${path}.owner`, String(process.pid));
  }

  /** Files written before OrderCancel and servicing existed lack some columns of `orders`. */
  private addMissingOrderColumns(): void {
    const columns = new Set((this.db.all('PRAGMA table_info(orders)') as Row[]).map((c) => String(c.name)));
    for (const [name, type] of ORDER_COLUMNS_ADDED)
      if (!columns.has(name)) this.db.exec(`ALTER TABLE orders ADD COLUMN ${name} ${type}`);
    this.db.exec('CREATE INDEX IF NOT EXISTS orders_by_deadline ON orders (status, payment_due_at)');
    this.db.exec('CREATE INDEX IF NOT EXISTS orders_by_change_deadline ON orders (change_action_by)');
  }

  /** Closes the database and frees the wasm memory. Idempotent. */
  close(): void {
    if (!this.db.isOpen) return;
    for (const s of this.statements.values()) s.finalize();
    this.statements.clear();
    this.db.close();
    if (this.path !== ':memory:') rmSync(`${this.path}.owner`, { force: true });
  }

  /** The first row of `sql`, or undefined. */
  get(sql: string, values: SqlValue[]): Row | undefined {
    return (this.stmt(sql).get(values) as Row | null) ?? undefined;
  }

  /** Every row of `sql`. */
  all(sql: string, values: SqlValue[]): Row[] {
    return this.stmt(sql).all(values) as Row[];
  }

  /** Runs `sql`; the number of rows it changed. */
  run(sql: string, values: SqlValue[]): number {
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

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
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
