/**
 * The booking activities: each builds one NDC request from the intent and earlier results with the
 * codec, calls the airline through the NDC client, and returns a small plain result. One file per
 * area (shopping, pricing, order, extras); what they all do around the call (header stamp,
 * heartbeat, failure reading, the agency as the airline knows it) is `airline-call.ts`.
 *
 * Card data reaches only `tokenise`, goes only to the payment interface, and never appears in a
 * log line, an error message or a result.
 */
import { airlineCall, asKnownBy, type BookingActivityDeps } from './airline-call';
import type { BookingActivities } from './booking.activities.types';
import { createExtrasActivities } from './extras.activities';
import { createOrderActivities } from './order.activities';
import { createPricingActivities } from './pricing.activities';
import { createServicingActivities } from './servicing.activities';
import { createShoppingActivities } from './shopping.activities';

export {
  classifyFailure,
  TRANSIENT_FAILURE_TYPE,
  type BookingActivityDeps,
  type ClassifyOptions,
} from './airline-call';
export { passengerIds } from '../src/booking/intent-to-ndc';
export type { BookingActivities } from './booking.activities.types';

/** Builds the activities of one airline from their dependencies. Functions only, no `this`. */
export function createBookingActivities(deps: BookingActivityDeps): BookingActivities {
  const call = airlineCall(deps);
  const local = asKnownBy(deps.airline);
  const shopping = createShoppingActivities(call);
  const pricing = createPricingActivities(call);
  const orders = createOrderActivities(call);
  const extras = createExtrasActivities(call);
  const servicing = createServicingActivities(call);
  return {
    calendar: local(shopping.calendar),
    shop: local(shopping.shop),
    price: local(pricing.price),
    tokenise: pricing.tokenise,
    repriceWithToken: local(pricing.repriceWithToken),
    createOrder: local(orders.createOrder),
    customerInput: local(orders.customerInput),
    reconcileOrder: local(orders.reconcileOrder),
    retrieveOrder: local(orders.retrieveOrder),
    cancelOrder: local(orders.cancelOrder),
    listServices: local(extras.listServices),
    readSeatMaps: local(extras.readSeatMaps),
    reshopChange: local(servicing.reshopChange),
    quoteRefund: local(servicing.quoteRefund),
    repriceOrder: local(servicing.repriceOrder),
    changeOrder: local(servicing.changeOrder),
    listOrderServices: local(servicing.listOrderServices),
    readOrderSeatMaps: local(servicing.readOrderSeatMaps),
    orderReadPermit: servicing.orderReadPermit,
  };
}
