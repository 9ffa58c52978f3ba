/**
 * What the saga reads of an order the airline shows (OrderViewRS, OrderChangeNotif): its flights,
 * the passengers still on it, and whether it is paid. Pure: used by the order activities.
 */
import type { OrderFlight, OrderSummary } from './servicing.model';
import { cancellationOf } from '../ndc/cancellation-penalty';
import type { DataLists, Order } from '../ndc/ndc.model';
import { requireElement, requireMoney } from '../ndc/require-element';
import { NdcInvalidResponseError } from '../ndc-client/ndc-client.errors';
import { orderTimeLimits } from '../ndc/order-servicing';

/** The order's flights (one per segment), in order of departure. */
export function orderFlights(dataLists: DataLists): OrderFlight[] {
  return (dataLists.flightSegments ?? [])
    .map((segment): OrderFlight => {
      const { departure, arrival, marketingCarrier } = segment;
      const flight: OrderFlight = {
        segmentKey: segment.segmentKey,
        flight: `${marketingCarrier.airlineId}${marketingCarrier.flightNumber}`,
        origin: departure.airportCode,
        destination: arrival.airportCode,
        departure: `${departure.date}T${departure.time ?? '00:00'}`,
      };
      if (arrival.date !== undefined) flight.arrival = `${arrival.date}T${arrival.time ?? '00:00'}`;
      return flight;
    })
    .sort((a, b) => (a.departure < b.departure ? -1 : a.departure > b.departure ? 1 : 0));
}

/** The PassengerIDs that still hold an item of the order (a removed traveller holds none). */
export function flyingPassengerIds(order: Pick<Order, 'orderItems'>): string[] {
  const ids = new Set<string>();
  for (const item of order.orderItems)
    for (const service of item.services) if (service.passengerRef !== undefined) ids.add(service.passengerRef);
  return [...ids];
}

/** A held order's payment deadline and price guarantee; `paid` once it carries a payment or no deadline. */
export function orderPaymentStatus(order: Order): {
  status: 'due' | 'paid';
  dueBy?: string;
  priceGuaranteedUntil?: string;
} {
  const limits = orderTimeLimits(order);
  if (limits.paymentDue === undefined || order.payments.length > 0) return { status: 'paid' };
  return {
    status: 'due',
    dueBy: limits.paymentDue,
    ...(limits.priceGuaranteedUntil !== undefined ? { priceGuaranteedUntil: limits.priceGuaranteedUntil } : {}),
  };
}

/**
 * The summary of one NDC Order with its DataLists (an OrderViewRS's, or an OrderChangeNotif's).
 * `currency`: that of amounts sent without `Code` (none: such an amount is refused, naming it).
 */
export function summaryOfOrder(order: Order, dataLists: DataLists, currency: string | undefined): OrderSummary {
  const reference = order.bookingReferences[0]?.id;
  if (reference === undefined) throw new NdcInvalidResponseError('Order without a BookingReference');
  return {
    orderId: order.orderId,
    owner: order.owner,
    bookingReference: reference,
    total: requireMoney(order.totalOrderPrice, 'Order/TotalOrderPrice', { currency, otherPrice: order.otherPrice }),
    status: requireElement(order.statusCode, 'Order/Status'),
    ...cancellationSummary(dataLists, currency),
    flights: orderFlights(dataLists),
    passengerIds: flyingPassengerIds(order),
    itemCount: order.orderItems.length,
    payment: orderPaymentStatus(order),
    ...(order.scheduleChange === true ? { scheduleChange: true } : {}),
    ...(order.scheduleChange === true && order.scheduleChangeActionBy !== undefined
      ? { actionBy: order.scheduleChangeActionBy }
      : {}),
  };
}

/** The fee and refund a cancelled order's view carries (see `cancellationOf`), as money. */
function cancellationSummary(
  dataLists: DataLists,
  currency: string | undefined,
): Pick<OrderSummary, 'cancellationFee' | 'refund'> {
  const { fee, refund } = cancellationOf(dataLists);
  const where = 'DataLists/PenaltyList/Penalty/Details/Detail/Amounts/Amount/CurrencyAmountValue';
  return {
    ...(fee !== undefined ? { cancellationFee: requireMoney(fee, where, { currency }) } : {}),
    ...(refund !== undefined ? { refund: requireMoney(refund, where, { currency }) } : {}),
  };
}
