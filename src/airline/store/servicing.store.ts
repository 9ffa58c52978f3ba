/**
 * Servicing records in SQLite: OrderReshopRS answers kept for the OrderChangeRQ that accepts
 * them (`reshop_responses`), and the changes applied by TransactionIdentifier with the OrderViewRS
 * they answered (`order_changes`: a repeated OrderChangeRQ changes nothing and answers it again).
 */
import type { AppliedChange, ReshopRecord } from '../servicing/servicing.types';
import { type AirlineDatabase, jsonBytes } from './airline.database';
import type { StoredOrderView } from './orders.store';

/** An applied change and the OrderViewRS it was answered with. */
export interface StoredChange extends AppliedChange {
  view: StoredOrderView;
}

export class SqliteServicingStore {
  constructor(private readonly db: AirlineDatabase) {}

  saveReshop(record: ReshopRecord): void {
    this.db.run(
      'INSERT INTO reshop_responses (response_id, order_id, agency_id, expires_at, record) VALUES (?, ?, ?, ?, CAST(? AS TEXT))',
      [record.responseId, record.orderId, record.agencyId, record.expiresAt, jsonBytes(record)],
    );
  }

  getReshop(responseId: string): ReshopRecord | undefined {
    const row = this.db.get('SELECT record FROM reshop_responses WHERE response_id = ?', [responseId]);
    return row ? (JSON.parse(String(row.record)) as ReshopRecord) : undefined;
  }

  /** Records change `change` of its order, inside the transaction that applied it. */
  saveChangeInTransaction(change: StoredChange): void {
    this.db.run(
      'INSERT INTO order_changes (order_id, transaction_id, request_hash, version, applied_at, view) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT))',
      [
        change.orderId,
        change.transactionId,
        change.requestHash,
        change.version,
        change.appliedAt,
        jsonBytes(change.view),
      ],
    );
  }

  /** The change of order `orderId` applied by the OrderChangeRQ with TransactionIdentifier `transactionId`. */
  getChange(orderId: string, transactionId: string): StoredChange | undefined {
    const row = this.db.get('SELECT * FROM order_changes WHERE order_id = ? AND transaction_id = ?', [
      orderId,
      transactionId,
    ]);
    if (!row) return undefined;
    return {
      orderId: String(row.order_id),
      transactionId: String(row.transaction_id),
      requestHash: String(row.request_hash),
      version: Number(row.version),
      appliedAt: String(row.applied_at),
      view: JSON.parse(String(row.view)) as StoredOrderView,
    };
  }
}
