/**
 * Steps `tokenise` and `repriceWithToken`: the card becomes a token at the chosen airline (once
 * per airline: a later round at the same airline reuses it), and the offer is priced again with
 * the token, which adds the card fee of credit cards.
 */
import type { ChosenOffer, PriceResult } from '../../activities/booking.activities.types';
import type { BookingState, PaymentCard } from '../../src/booking/booking.model';
import { chosenAirline } from './airlines';
import type { Booking, Round } from './context';

/**
 * The round's card token when it belongs to the chosen airline, else a new one of `card`. `funding`:
 * learn the card's funding (a servicing payment, whose card fee depends on it).
 */
export async function cardToken(
  booking: Booking,
  card: PaymentCard,
  token: Round['token'],
  funding = false,
): Promise<NonNullable<Round['token']>> {
  const airline = booking.airline?.code;
  if (token !== undefined && token.airline === airline) return token;
  const { ctx, trail } = booking;
  const made = await trail.step('tokenise', () =>
    chosenAirline(booking).ndc.tokenise({ card, correlationId: ctx.correlationId, ...(funding ? { funding } : {}) }),
  );
  return {
    id: made.tokenId,
    ...(airline !== undefined ? { airline } : {}),
    ...(made.funding !== undefined ? { funding: made.funding } : {}),
  };
}

/** The offers priced again with the token (the airline adds the card fee). */
export async function repriceWithToken(
  booking: Booking,
  offers: ChosenOffer[],
  previous: PriceResult,
  tokenId: string,
): Promise<PriceResult> {
  const { ctx, trail } = booking;
  return trail.step('repriceWithToken', () =>
    chosenAirline(booking).ndc.repriceWithToken({ ctx, offers, previous, tokenId }),
  );
}

/** Shows a pricing's total and card fee in the state (their one writer). */
export function showPrice(state: BookingState, priced: PriceResult): void {
  state.pricedTotal = priced.total;
  if (priced.surcharge !== undefined) state.surcharge = priced.surcharge;
  else delete state.surcharge;
}
