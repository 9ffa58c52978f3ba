/**
 * Steps that read the order after the sale and change nothing at the airline (docs/orchestrator.md,
 * "Servicing"): `reshop` (offers to change the trip), `quoteRefund`, `repriceOrder` (a held
 * order's price now), `orderServices` and `orderSeatMap` (what can be added), `retrieveOrder`.
 * Retried by Temporal like the booking's other reads.
 */
import type {
  ChangeOfferFound,
  NdcContext,
  OrderSummary,
  QuoteRefundResult,
  RepriceOrderResult,
  RetrieveResult,
  SeatMapResult,
  ServiceListResult,
} from '../../activities/booking.activities.types';
import type { ChangeOffersRequest } from '../../src/booking/servicing.model';
import { chosenAirline, readsAt } from './airlines';
import { refOf, type Booking } from './context';

export async function reshop(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  request: ChangeOffersRequest,
  involuntary = false,
): Promise<ChangeOfferFound[]> {
  const { journey } = booking.intent;
  const found = await booking.trail.step('reshop', () =>
    chosenAirline(booking).ndc.reshopChange({
      ctx,
      order: refOf(order),
      request,
      origin: journey.origin,
      destination: journey.destination,
      ...(involuntary ? { involuntary } : {}),
    }),
  );
  return found.offers;
}

export async function quoteRefund(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  passengers: number[] | undefined,
): Promise<QuoteRefundResult> {
  return booking.trail.step('quoteRefund', () =>
    chosenAirline(booking).ndc.quoteRefund({
      ctx,
      order: refOf(order),
      ...(passengers !== undefined ? { passengers } : {}),
    }),
  );
}

export async function repriceOrder(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
  tokenId: string,
): Promise<RepriceOrderResult> {
  return booking.trail.step('repriceOrder', () =>
    chosenAirline(booking).ndc.repriceOrder({ ctx, order: refOf(order), tokenId }),
  );
}

export async function orderServices(
  booking: Booking,
  ctx: NdcContext,
  order: OrderSummary,
): Promise<ServiceListResult> {
  return booking.trail.step('orderServices', () =>
    chosenAirline(booking).ndc.listOrderServices({
      ctx,
      order: refOf(order),
      destination: booking.intent.journey.destination,
    }),
  );
}

export async function orderSeatMap(booking: Booking, ctx: NdcContext, order: OrderSummary): Promise<SeatMapResult> {
  return booking.trail.step('orderSeatMap', () =>
    chosenAirline(booking).ndc.readOrderSeatMaps({ ctx, order: refOf(order) }),
  );
}

/**
 * The order read back on its schedule: a permit from the airline's reads queue first (the share of
 * its quota such reads may take), then the read behind every booking and servicing step.
 */
export async function readOrderForChanges(
  booking: Booking,
  order: Pick<OrderSummary, 'orderId' | 'owner'>,
  reason: string,
): Promise<RetrieveResult> {
  const { permit, ndc } = readsAt(booking.airline);
  await permit.orderReadPermit();
  return booking.trail.step('retrieveOrder', () => ndc.retrieveOrder({ ctx: booking.ctx, ...refOf(order) }), {
    reason,
  });
}

/** The order read back (`reason` says why). */
export async function readOrder(
  booking: Booking,
  order: Pick<OrderSummary, 'orderId' | 'owner'>,
  reason: string,
): Promise<RetrieveResult> {
  return booking.trail.step(
    'retrieveOrder',
    () => chosenAirline(booking).ndc.retrieveOrder({ ctx: booking.ctx, ...refOf(order) }),
    { reason },
  );
}
