/**
 * Steps `shop` (at every airline at once) and the choice of the offer: one offer per direction by
 * the selection rules, across the airlines that answered; the winner's airline owns the rest of
 * the booking.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { ChosenOffer, ShopResult } from '../../activities/booking.activities.types';
import { FailureType } from '../../src/booking/booking.failures';
import type { AirlineRoute, BookingState } from '../../src/booking/booking.model';
import { compare } from '../../src/common/decimal';
import { atEveryAirline, noAirline, routesOf, type AirlineAnswer, type AirlineReason } from './airlines';
import type { Booking, Round } from './context';
import { selectAcrossAirlines, type AirlineSelection } from './offer-selection';
import type { Travel } from './travel-dates';

/** Every airline's answer to the day search, and the airlines that gave none. */
export interface Shopped {
  answers: AirlineAnswer<ShopResult>[];
  skipped: AirlineReason[];
}

/** The offers chosen, the shopping response they came from, and the airline they belong to. */
export interface ChosenOffers {
  route: AirlineRoute | undefined;
  shop: ShopResult;
  chosen: ChosenOffer[];
}

export async function shop(booking: Booking, travel: Travel, round: Round): Promise<Shopped> {
  const { ctx, intent } = booking;
  const { journey } = intent;
  const excluded = round.excluded ?? [];
  return atEveryAirline(
    booking,
    routesOf(booking).filter((route) => route === undefined || !excluded.includes(route.code)),
    'shop',
    ({ ndc }) => ndc.shop({ ctx, origin: journey.origin, destination: journey.destination, ...travel }),
    { first: round.number === 0, ...(round.reason !== undefined ? { reason: round.reason } : {}) },
  );
}

/**
 * One offer per direction, by the selection rules, across the airlines that answered; shows the
 * choice (and, with several airlines, each one's best total) in the state. NO_OFFERS when no
 * airline has every direction.
 */
export function chooseOffers(booking: Booking, { answers, skipped }: Shopped, travel: Travel): ChosenOffers {
  const { intent, trail } = booking;
  const directions = travel.returnDate !== undefined ? 2 : 1;
  const priceClass = intent.selection?.priceClass;
  const nameOf = (answer: AirlineAnswer<ShopResult>): string =>
    answer.route?.code ?? answer.result.offers[0]?.owner ?? 'airline';
  const selection = selectAcrossAirlines(
    answers.map((answer) => ({ airline: nameOf(answer), offers: answer.result.offers })),
    directions,
    intent.currency,
    priceClass,
  );
  const missing = selection.missing.map((gap) => ({
    airline: gap.airline,
    type: FailureType.NO_OFFERS,
    message: missingOffer(gap, travel, priceClass),
  }));
  if (selection.chosen === undefined) {
    if (booking.routes === undefined || booking.routes.length <= 1)
      throw ApplicationFailure.nonRetryable(missing[0]!.message, FailureType.NO_OFFERS);
    throw noAirline('shop', [...skipped, ...missing]);
  }
  const winner = answers.find((answer) => nameOf(answer) === selection.chosen!.airline)!;
  const offers = selection.chosen.offers;
  const shopped = winner.result;
  trail.state.chosenOffer = {
    offerIds: offers.map((offer) => offer.offerId),
    ...(offers[0]!.priceClass !== undefined ? { priceClass: offers[0]!.priceClass } : {}),
    ...travel,
    shoppingResponseId: shopped.shoppingResponseId,
  };
  if (booking.routes !== undefined)
    trail.state.airlines = airlineComparison(selection, skipped, missing, intent.currency);
  return {
    route: winner.route,
    shop: shopped,
    chosen: offers.map((offer) => ({
      offerId: offer.offerId,
      owner: offer.owner,
      responseId: shopped.shoppingResponseId,
      offerItems: offer.offerItems,
    })),
  };
}

/** `no return offer in price class PLUS on 2026-12-01` (and the currency of offers left out). */
function missingOffer(gap: AirlineSelection['missing'][number], travel: Travel, priceClass?: string): string {
  const what = priceClass !== undefined ? ` in price class ${priceClass}` : '';
  const date = gap.direction === 0 ? travel.departureDate : travel.returnDate;
  const other = gap.leftOutCurrency !== undefined ? ` (offers in ${gap.leftOutCurrency} left out)` : '';
  return `no ${gap.direction === 0 ? 'outbound' : 'return'} offer${what} on ${date}${other}`;
}

/** Each airline's best total, or why it had none, and which won: for the booking view and `npm run book`. */
function airlineComparison(
  selection: AirlineSelection,
  skipped: AirlineReason[],
  missing: AirlineReason[],
  currency: string,
): NonNullable<BookingState['airlines']> {
  const winner = selection.chosen!;
  const ties = selection.picks.filter((pick) => compare(pick.total, winner.total) === 0).length;
  return [
    ...selection.picks.map((pick) => ({
      airline: pick.airline,
      total: { value: pick.total, currency },
      ...(pick === winner
        ? { chosen: true as const, why: ties > 1 ? 'lowest total, tie broken by airline order' : 'lowest total' }
        : {}),
    })),
    ...[...skipped, ...missing].map((reason) => ({
      airline: reason.airline,
      skipped: `${reason.type}: ${reason.message}`,
    })),
  ];
}
