/**
 * Orders in SQLite: each with what finds it again (agency, shopping and pricing response ids,
 * booking reference), its status and version, what it holds (its content) and its OrderViewRS; a
 * cancelled order keeps what its cancel did.
 */
import type { ContactInformation, Money, OrderPayment, OrderViewRs, Passenger } from '../../ndc/ndc.model';
import type { OrderContent } from '../servicing/servicing.types';
import { type AirlineDatabase, type Row, jsonBytes } from './airline.database';

/**
 * Where an order stands: `held` unpaid (until its payment time limit), `live` paid, `cancelled`
 * by an OrderCancelRQ, `expired` cancelled by the airline unpaid at its payment time limit.
 */
export type OrderStatus = 'held' | 'live' | 'cancelled' | 'expired';

/** The OrderViewRS of an order, with the order's version (written as the root's `SequenceNmbr`). */
export type StoredOrderView = Extract<OrderViewRs, { kind: 'success' }> & { sequenceNumber?: number };

/** A stored order with what is needed to find it again and show it. */
export interface StoredOrder {
  orderId: string;
  bookingReference: string;
  agencyId: string;
  shoppingResponseId: string;
  pricingResponseId: string;
  createdAt: string;
  /** `held` until paid; see {@link OrderStatus}. Files written before servicing: `live`. */
  status: OrderStatus;
  /** 1 at creation, one more with every change (payment, change, removal, cancel, expiry). */
  version: number;
  /** A held order's payment time limit (ISO 8601 UTC). */
  paymentDueAt?: string;
  /** While a schedule change waits for the seller's answer: its action deadline (ISO 8601 UTC). */
  changeActionBy?: string;
  /** What the order holds now; absent in files written before servicing (derived from its pricing). */
  content?: OrderContent;
  /** The OrderViewRS model of the order as it now is (header attributes are set per response). */
  view: StoredOrderView;
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

/** What a change writes of an order: its new status, content and view (its version is one more). */
export interface OrderUpdate {
  status: OrderStatus;
  content: OrderContent;
  view: StoredOrderView;
  paymentDueAt?: string;
  changeActionBy?: string;
  cancellation?: StoredCancellation;
}

export class SqliteOrderStore {
  constructor(private readonly db: AirlineDatabase) {}

  /** True when `bookingReference` is already used by an order. */
  bookingReferenceTaken(bookingReference: string): boolean {
    return this.db.get('SELECT 1 AS x FROM orders WHERE booking_reference = ?', [bookingReference]) !== undefined;
  }

  saveOrder(order: StoredOrder): void {
    this.db.run(
      'INSERT INTO orders (order_id, booking_reference, agency_id, shopping_response_id, pricing_response_id, created_at, status, version, payment_due_at, content, view, request) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT))',
      [
        order.orderId,
        order.bookingReference,
        order.agencyId,
        order.shoppingResponseId,
        order.pricingResponseId,
        order.createdAt,
        order.status,
        order.version,
        order.paymentDueAt ?? null,
        order.content ? jsonBytes(order.content) : null,
        jsonBytes(order.view),
        order.request ? jsonBytes(order.request) : null,
      ],
    );
  }

  /**
   * Writes `update` over order `orderId` at `version` and makes it `version + 1`, inside the
   * caller's transaction; false (and nothing changed) when the order is no longer at `version`
   * (another change came first).
   */
  updateInTransaction(orderId: string, version: number, update: OrderUpdate): boolean {
    const changed = this.db.run(
      'UPDATE orders SET status = ?, version = version + 1, payment_due_at = ?, change_action_by = ?, content = CAST(? AS TEXT), ' +
        'view = CAST(? AS TEXT), cancellation = COALESCE(CAST(? AS TEXT), cancellation) WHERE order_id = ? AND version = ?',
      [
        update.status,
        update.paymentDueAt ?? null,
        update.changeActionBy ?? null,
        jsonBytes(update.content),
        jsonBytes(update.view),
        update.cancellation ? jsonBytes(update.cancellation) : null,
        orderId,
        version,
      ],
    );
    return changed === 1;
  }

  /** Ids of the held orders whose payment time limit is at or before `nowIso`, oldest deadline first. */
  heldOrdersDue(nowIso: string): string[] {
    const rows = this.db.all(
      "SELECT order_id FROM orders WHERE status = 'held' AND payment_due_at <= ? ORDER BY payment_due_at, order_id",
      [nowIso],
    );
    return rows.map((r) => String(r.order_id));
  }

  /** The earliest payment time limit of a held order, if any (ISO 8601). */
  nextHoldDeadline(): string | undefined {
    const row = this.db.get("SELECT MIN(payment_due_at) AS due FROM orders WHERE status = 'held'", []);
    return row?.due ? String(row.due) : undefined;
  }

  /** Ids of the open (held or paid) orders whose schedule change deadline is at or before `nowIso`, oldest first. */
  changesDue(nowIso: string): string[] {
    const rows = this.db.all(
      "SELECT order_id FROM orders WHERE status IN ('held', 'live') AND change_action_by <= ? ORDER BY change_action_by, order_id",
      [nowIso],
    );
    return rows.map((r) => String(r.order_id));
  }

  /** The earliest schedule change deadline of an open order, if any (ISO 8601). */
  nextChangeDeadline(): string | undefined {
    const row = this.db.get(
      "SELECT MIN(change_action_by) AS due FROM orders WHERE status IN ('held', 'live') AND change_action_by IS NOT NULL",
      [],
    );
    return row?.due ? String(row.due) : undefined;
  }

  /** Ids of the open (held or paid) orders, oldest first: those a schedule change may touch. */
  openOrderIds(): string[] {
    const rows = this.db.all(
      "SELECT order_id FROM orders WHERE status IN ('held', 'live') ORDER BY created_at, order_id",
      [],
    );
    return rows.map((r) => String(r.order_id));
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

function parsed<T>(value: unknown): T | undefined {
  return value ? (JSON.parse(String(value)) as T) : undefined;
}

function toOrder(row: Row | undefined): StoredOrder | undefined {
  if (!row) return undefined;
  const order: StoredOrder = {
    orderId: String(row.order_id),
    bookingReference: String(row.booking_reference),
    agencyId: String(row.agency_id),
    shoppingResponseId: String(row.shopping_response_id),
    pricingResponseId: String(row.pricing_response_id),
    createdAt: String(row.created_at),
    status: String(row.status ?? 'live') as OrderStatus,
    version: Number(row.version ?? 1),
    view: JSON.parse(String(row.view)) as StoredOrder['view'],
  };
  const optional: Partial<StoredOrder> = {
    paymentDueAt: row.payment_due_at ? String(row.payment_due_at) : undefined,
    changeActionBy: row.change_action_by ? String(row.change_action_by) : undefined,
    content: parsed<OrderContent>(row.content),
    request: parsed<StoredOrder['request']>(row.request),
    cancellation: parsed<StoredCancellation>(row.cancellation),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(order, { [key]: value });
  return order;
}
