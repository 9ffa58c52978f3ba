/**
 * Orders in SQLite: each with what finds it again (agency, shopping and pricing response ids,
 * booking reference) and its OrderViewRS; a cancelled order keeps what its cancel did.
 */
import type { ContactInformation, Money, OrderPayment, OrderViewRs, Passenger } from '../../ndc/ndc.model';
import { type AirlineDatabase, type Row, jsonBytes } from './airline.database';

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

export class SqliteOrderStore {
  constructor(private readonly db: AirlineDatabase) {}

  /** True when `bookingReference` is already used by an order. */
  bookingReferenceTaken(bookingReference: string): boolean {
    return this.db.get('SELECT 1 AS x FROM orders WHERE booking_reference = ?', [bookingReference]) !== undefined;
  }

  saveOrder(order: StoredOrder): void {
    this.db.run(
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
   * Marks `orderId` cancelled with `view` (its cancelled OrderViewRS), inside the caller's
   * transaction; false (and nothing changed) when it was already cancelled.
   */
  cancelInTransaction(orderId: string, view: StoredOrder['view'], cancellation: StoredCancellation): boolean {
    const changed = this.db.run(
      'UPDATE orders SET view = CAST(? AS TEXT), cancellation = CAST(? AS TEXT) WHERE order_id = ? AND cancellation IS NULL',
      [jsonBytes(view), jsonBytes(cancellation), orderId],
    );
    return changed === 1;
  }

  /** The first order created from pricing response `pricingResponseId`, if any. */
  orderByPricingResponse(pricingResponseId: string): StoredOrder | undefined {
    return toOrder(
      this.db.get('SELECT * FROM orders WHERE pricing_response_id = ? ORDER BY created_at LIMIT 1', [
        pricingResponseId,
      ]),
    );
  }

  getOrder(orderId: string): StoredOrder | undefined {
    return toOrder(this.db.get('SELECT * FROM orders WHERE order_id = ?', [orderId]));
  }

  /** Orders created from offers of shopping response `shoppingResponseId`, oldest first. */
  ordersByShoppingResponse(shoppingResponseId: string): StoredOrder[] {
    const rows = this.db.all('SELECT * FROM orders WHERE shopping_response_id = ? ORDER BY created_at, order_id', [
      shoppingResponseId,
    ]);
    return rows.map((r) => toOrder(r)!);
  }
}

function toOrder(row: Row | undefined): StoredOrder | undefined {
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
