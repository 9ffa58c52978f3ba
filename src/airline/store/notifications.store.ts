/**
 * The outbox of the OrderChangeNotif the airline pushes (`order_notifications`,
 * docs/airline-service.md, "Schedule changes"): one row per order version, written in the
 * transaction that made that version, sent until the agency acknowledges it (2xx). Durable: a
 * restart sends what is still pending.
 */
import type { AirlineDatabase, Row } from './airline.database';

/** A notification to send: the encoded message (in the airline's binding) for one version of one order. */
export interface OutboxNotification {
  id: number;
  orderId: string;
  version: number;
  agencyId: string;
  /** The message as sent (envelope included). */
  body: string;
  createdAt: string;
  attempts: number;
  nextAttemptAt: string;
  deliveredAt?: string;
  lastError?: string;
}

/** A pending notification `n` that no older pending one of its order holds back. */
const OLDEST_PENDING =
  'n.delivered_at IS NULL AND NOT EXISTS (SELECT 1 FROM order_notifications e ' +
  'WHERE e.order_id = n.order_id AND e.delivered_at IS NULL AND e.id < n.id)';

export class SqliteNotificationStore {
  constructor(private readonly db: AirlineDatabase) {}

  /** Queues `body` for version `version` of `orderId` (once: a second one for that version is ignored), inside the caller's transaction. */
  enqueueInTransaction(n: Pick<OutboxNotification, 'orderId' | 'version' | 'agencyId' | 'body'>, now: string): void {
    this.db.run(
      'INSERT INTO order_notifications (order_id, version, agency_id, body, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (order_id, version) DO NOTHING',
      [n.orderId, n.version, n.agencyId, n.body, now, now],
    );
  }

  /**
   * The notifications due at `nowIso`, oldest first, at most `limit`: only the oldest pending one
   * of each order (an order's versions reach the agency in order).
   */
  due(nowIso: string, limit: number): OutboxNotification[] {
    const rows = this.db.all(
      `SELECT * FROM order_notifications n WHERE ${OLDEST_PENDING} AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
      [nowIso, limit],
    );
    return rows.map(toNotification);
  }

  /** When the next sendable notification (the oldest pending of its order) is due (ISO 8601), if any. */
  nextDue(): string | undefined {
    const row = this.db.get(
      `SELECT MIN(next_attempt_at) AS due FROM order_notifications n WHERE ${OLDEST_PENDING}`,
      [],
    );
    return row?.due ? String(row.due) : undefined;
  }

  /** Marks notification `id` acknowledged at `at`. */
  delivered(id: number, at: string): void {
    this.db.run(
      'UPDATE order_notifications SET delivered_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?',
      [at, id],
    );
  }

  /** Records a failed attempt of notification `id` and when to try again. */
  failed(id: number, error: string, nextAttemptAt: string): void {
    this.db.run(
      'UPDATE order_notifications SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?',
      [error.slice(0, 500), nextAttemptAt, id],
    );
  }

  /** Every notification of `orderId`, oldest first (what the simulator and tests look at). */
  ofOrder(orderId: string): OutboxNotification[] {
    return this.db
      .all('SELECT * FROM order_notifications WHERE order_id = ? ORDER BY id', [orderId])
      .map(toNotification);
  }
}

function toNotification(row: Row): OutboxNotification {
  const n: OutboxNotification = {
    id: Number(row.id),
    orderId: String(row.order_id),
    version: Number(row.version),
    agencyId: String(row.agency_id),
    body: String(row.body),
    createdAt: String(row.created_at),
    attempts: Number(row.attempts),
    nextAttemptAt: String(row.next_attempt_at),
  };
  if (row.delivered_at) n.deliveredAt = String(row.delivered_at);
  if (row.last_error) n.lastError = String(row.last_error);
  return n;
}
