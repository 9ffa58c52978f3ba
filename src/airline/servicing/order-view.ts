/**
 * The OrderViewRS of an order, written from what it holds (servicing.types.ts `OrderContent`) each
 * time it changes: its items, flights and services in the DataLists, its money, status and time
 * limits, a change the airline made that waits for the seller (`Status@ScheduleChangeInd` and its
 * deadline), and its version (the root's `SequenceNmbr`). Pure.
 */
import type { DataLists, Metadata, OrderItem } from '../../ndc/ndc.model';
import { commissionOf, orderItemsOf } from '../order-pricing/order-pricing';
import type { OrderStatus, StoredOrderView } from '../store/orders.store';
import type { World } from '../world/world';
import { ListsBuilder } from '../world/world.lists';
import { orderTotal } from './order-content';
import type { OrderContent, OrderHold } from './servicing.types';

/** Status code of a live order and of a cancelled (or expired) one (`Order/Status/StatusCode`, IATA_CodeType). */
export const ORDER_STATUS = { live: 'OK', cancelled: 'XX' } as const;

/** Who an order is: its ids as the view names them. */
export interface OrderIdentity {
  orderId: string;
  bookingReference: string;
  /** The order's page (`AIRLINE_PORTAL_URL` + booking reference). */
  webAddressId: string;
}

/** The OrderViewRS model of an order with `content` in `status` at `version` (the header is set per answer). */
export function orderView(
  world: World,
  identity: OrderIdentity,
  content: OrderContent,
  status: OrderStatus,
  version: number,
): StoredOrderView {
  const { lists, metadata } = orderLists(world, content);
  const owner = world.airlineCode;
  const hold = status === 'held' ? content.hold : undefined;
  const open = status === 'held' || status === 'live';
  const dataLists: DataLists = { ...lists, passengers: content.passengers, contacts: content.contacts };
  if (content.penalties.length > 0) dataLists.penalties = content.penalties;
  return {
    target: 'Test',
    version: '17.2',
    kind: 'success',
    sequenceNumber: version,
    orders: [
      {
        orderId: identity.orderId,
        owner,
        webAddressId: identity.webAddressId,
        bookingReferences: [{ id: identity.bookingReference, airlineId: owner }],
        totalOrderPrice: orderTotal(content),
        statusCode: open ? ORDER_STATUS.live : ORDER_STATUS.cancelled,
        ...(open && content.airlineChange !== undefined
          ? { scheduleChange: true, scheduleChangeActionBy: content.airlineChange.actionBy }
          : {}),
        payments: content.charges.map((c) => ({ type: c.type, amount: c.amount, voucherNumber: c.voucherNumber })),
        ...(hold !== undefined ? { paymentTimeLimit: hold.paymentDue } : {}),
        orderItems: withTimeLimits(orderItemsOf(content.items, lists.flights ?? [], owner), hold),
      },
    ],
    commission: commissionOf(content.items, content.currency, world.data.commissionPercent),
    dataLists,
    metadata,
  };
}

/**
 * The DataLists (flights, segments with their booking classes, origin-destinations, price classes,
 * service definitions) and Metadata of what `content` holds, as OfferPrice writes them: each
 * journey in direction order with its bundle, then the services of the items.
 */
export function orderLists(world: World, content: OrderContent): { lists: DataLists; metadata: Metadata } {
  const lists = new ListsBuilder(world);
  addOrderLists(world, content, lists);
  const metadata: Metadata = lists.metadata();
  // OrderViewRS has no Metadata/Shopping (journeys).
  delete metadata.journeys;
  return { lists: lists.dataLists(), metadata };
}

/** Adds what `content` holds to `lists`: its journeys with their booking classes, price classes and bundles, then its items' services. */
export function addOrderLists(world: World, content: OrderContent, lists: ListsBuilder): void {
  for (const j of content.journeys) {
    const journey = world.journeyOf(j.flights, j.date);
    const rbds = journey.segments.map((s) => content.segments.find((x) => x.inventoryKey === s.inventoryKey)?.rbd);
    lists.addJourney(
      lists.addOriginDestination(j.from, j.to),
      journey,
      rbds.filter((r) => r !== undefined),
    );
    lists.addPriceClass(j.priceClass);
    const bundle = world.priceClass(j.priceClass)?.bundle;
    if (bundle !== undefined) lists.addService(bundle);
  }
  for (const item of content.items)
    for (const s of item.services) {
      const ref = s.serviceDefinitionRef?.ref ?? s.selectedSeat?.serviceDefinitionRef;
      if (ref !== undefined) lists.addService(ref.replace(/^SD__/, ''));
    }
}

/** The order items of a held order carry its payment time limit and price guarantee. */
function withTimeLimits(items: OrderItem[], hold: OrderHold | undefined): OrderItem[] {
  if (hold === undefined) return items;
  return items.map((item) => ({
    ...item,
    paymentTimeLimit: hold.paymentDue,
    priceGuaranteeTimeLimit: hold.priceGuaranteedUntil,
  }));
}
