/**
 * The orders as the servicing operations use them: found for the agency that made them (913
 * otherwise), read with what they hold (derived from their pricing for orders stored before
 * servicing existed), and revised with their inventory and seats in the caller's transaction, their
 * version one more each time.
 */
import { AGENCY_ID_ELEMENT, requireElement } from '../../ndc/require-element';
import { AirlineError } from '../airline.errors';
import type {
  AirlineStore,
  InventoryMoves,
  OrderStatus,
  StoredCancellation,
  StoredOrder,
} from '../store/airline.store';
import type { StoredOrderView } from '../store/orders.store';
import type { World } from '../world/world';
import { journeysOf, newOrderContent } from './order-content';
import { orderView } from './order-view';
import type { OrderContent } from './servicing.types';

/** Text of the 913 error element. */
export const ORDER_NOT_FOUND_TEXT = 'Order not found';

/** An order and what it holds now. */
export interface LoadedOrder {
  order: StoredOrder;
  content: OrderContent;
}

/** What a revision of an order writes. */
export interface OrderRevision {
  content: OrderContent;
  status: OrderStatus;
  moves: InventoryMoves;
  cancellation?: StoredCancellation;
}

export class OrderBook {
  constructor(
    private readonly store: AirlineStore,
    private readonly world: World,
    private readonly portalUrl: string,
  ) {}

  /**
   * The order `orderId` of `agencyId` with its content; another agency's, another owner's
   * (`owner` when the request names one) or an unknown order is ORDER_NOT_FOUND (913).
   */
  find(orderId: string, agencyId: string | undefined, owner?: string): LoadedOrder {
    const agency = requireElement(agencyId, AGENCY_ID_ELEMENT);
    const order = this.store.orders.getOrder(orderId);
    if (!order || order.agencyId !== agency || (owner !== undefined && owner !== this.world.airlineCode))
      throw new AirlineError('ORDER_NOT_FOUND', ORDER_NOT_FOUND_TEXT);
    return { order, content: this.contentOf(order) };
  }

  /** Refuses a cancelled (770) or expired (772) order: nothing more can be done with it. */
  requireOpen(order: StoredOrder): void {
    if (order.status === 'cancelled') {
      throw new AirlineError(
        'ORDER_ALREADY_CANCELLED',
        `Order ${order.orderId} was cancelled${order.cancellation ? ` on ${order.cancellation.cancelledAt}` : ''}; it can no longer be changed`,
      );
    }
    if (order.status === 'expired') {
      throw new AirlineError(
        'ORDER_EXPIRED',
        `Order ${order.orderId} was not paid by ${order.paymentDueAt ?? 'its payment time limit'} and was cancelled by the airline; shop and order again`,
      );
    }
  }

  /** What `order` holds: its stored content, or (an order stored before servicing) its pricing's. */
  contentOf(order: StoredOrder): OrderContent {
    if (order.content) return order.content;
    const pricing = this.store.responses.getPricing(order.pricingResponseId);
    const shopping = pricing && this.store.responses.getShopping(pricing.shoppingResponseId);
    if (!pricing || !shopping) throw new Error(`order ${order.orderId} has no pricing or shopping record`);
    const request = order.request ?? { passengers: pricing.passengers, contacts: [], payments: [] };
    return newOrderContent(pricing, journeysOf(pricing, shopping), request);
  }

  /** The OrderViewRS of `order` holding `content` in `status` at `version`. */
  view(
    order: Pick<StoredOrder, 'orderId' | 'bookingReference'>,
    content: OrderContent,
    status: OrderStatus,
    version: number,
  ): StoredOrderView {
    const identity = {
      orderId: order.orderId,
      bookingReference: order.bookingReference,
      webAddressId: `${this.portalUrl}${order.bookingReference}`,
    };
    return orderView(this.world, identity, content, status, version);
  }

  /**
   * Writes `revision` over `order` (which must still be at its version: else ORDER_CHANGED) with its
   * inventory and seat moves, inside the caller's transaction; a booking class or seat no longer to
   * be had is SOLD_OUT (the caller's transaction rolls back). Returns the new view.
   */
  reviseInTransaction(order: StoredOrder, revision: OrderRevision, now: Date): StoredOrderView {
    const version = order.version + 1;
    const view = this.view(order, revision.content, revision.status, version);
    const done = this.store.reviseOrderInTransaction(
      order.orderId,
      order.version,
      {
        status: revision.status,
        content: revision.content,
        view,
        ...(revision.status === 'held' && revision.content.hold
          ? { paymentDueAt: revision.content.hold.paymentDue }
          : {}),
        ...(revision.cancellation ? { cancellation: revision.cancellation } : {}),
        ...(revision.content.airlineChange ? { changeActionBy: revision.content.airlineChange.actionBy } : {}),
      },
      revision.moves,
      this.world.capacityOf,
      now.toISOString(),
    );
    if (done === false)
      throw new AirlineError('ORDER_CHANGED', `Order ${order.orderId} changed meanwhile; read it and try again`);
    if (done !== true) throw soldOutOf(done);
    return view;
  }
}

function soldOutOf(refusal: Exclude<ReturnType<AirlineStore['reviseOrderInTransaction']>, boolean>): AirlineError {
  if (refusal.soldOut === 'seat') {
    const { seat, inventoryKey } = refusal.seat;
    return new AirlineError('SOLD_OUT', `Seat ${seat} on ${inventoryKey} is no longer available; choose another seat`);
  }
  return new AirlineError(
    'SOLD_OUT',
    'Seats of the new flights are no longer available in the booking class offered; reshop',
  );
}
