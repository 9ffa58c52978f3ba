/**
 * What the saga reads of an order the airline shows (OrderViewRS, OrderChangeNotif): its flights,
 * the passengers still on it, and whether it is paid. Pure: used by the order activities.
 */
import type { DataLists, Order } from '../ndc/ndc.model';
import { orderTimeLimits } from '../ndc/order-servicing';
import type { OrderFlight } from './servicing.model';

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
