/**
 * Phase 1 of the booking saga, prepare the offer: [calendar] -> shop (at every airline) -> select
 * (across airlines) -> price -> guard -> [tokenise] -> repriceWithToken -> guard, the steps after
 * selection at the airline that owns the chosen offer.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { ChosenOffer, PriceResult, ShopResult } from '../activities/booking.activities.types';
import { FailureType } from '../src/booking/booking.failures';
import type { AirlineRoute, BookingState } from '../src/booking/booking.model';
import { compare } from '../src/common/decimal';
import { chooseTravelDates } from './booking.decisions';
import { priceWithExtras, showExtras } from './booking.extras';
import {
  atEveryAirline,
  chooseAirline,
  chosenAirline,
  noAirline,
  type AirlineAnswer,
  type AirlineReason,
} from './booking.airlines';
import { selectAcrossAirlines, type AirlineSelection } from './offer-selection';
import { type ReadyToOrder, type Round, type Saga } from './booking.saga';

// ------------------------------------------------------------------ phase 1: prepare the offer

export interface Travel {
  departureDate: string;
  returnDate?: string;
}

/** The airlines to shop at: the routes, or the one airline of a booking without routes. */
function routesOf(saga: Saga): readonly (AirlineRoute | undefined)[] {
  return saga.airlines ?? [undefined];
}

/**
 * The preferred dates, or the cheapest of a calendar search around them (`flexibleDays`) at every
 * airline that answers calendar searches.
 */
export async function travelDates(saga: Saga): Promise<Travel> {
  const { ctx, intent } = saga;
  const { journey } = intent;
  const preferred = {
    departureDate: journey.departureDate,
    ...(journey.returnDate !== undefined ? { returnDate: journey.returnDate } : {}),
  };
  const flexibleDays = journey.flexibleDays ?? 0;
  const routes = routesOf(saga).filter((route) => route?.calendarSearch !== false);
  if (flexibleDays <= 0 || routes.length === 0) return preferred;
  const { answers } = await atEveryAirline(
    saga,
    routes,
    'calendar',
    ({ ndc }) =>
      ndc.calendar({ ctx, origin: journey.origin, destination: journey.destination, ...preferred, flexibleDays }),
    { first: true },
  );
  return chooseTravelDates(
    answers.flatMap((answer) => answer.result.prices),
    preferred,
  );
}

/** Shop (everywhere), select, price, guard, tokenise (once per token and airline), reprice with the token, guard. */
export async function prepareOffer(saga: Saga, travel: Travel, round: Round): Promise<ReadyToOrder> {
  const { ctx, intent, trail, guard } = saga;
  const { journey } = intent;
  const shopped = await atEveryAirline(
    saga,
    routesOf(saga),
    'shop',
    ({ ndc }) => ndc.shop({ ctx, origin: journey.origin, destination: journey.destination, ...travel }),
    { first: round.number === 0, ...(round.reason !== undefined ? { reason: round.reason } : {}) },
  );
  const { shop, chosen } = chooseOffers(saga, shopped.answers, shopped.skipped, travel);
  const { ndc } = chosenAirline(saga);

  const { priced: firstPrice, offers } = await priceWithExtras(saga, chosen);
  showPrice(trail.state, firstPrice);
  await guard.check(firstPrice.total.value, round);

  const airline = saga.airline?.code;
  if (round.token === undefined || round.token.airline !== airline) {
    const token = await trail.step('tokenise', () =>
      ndc.tokenise({ card: intent.payment.card, correlationId: ctx.correlationId }),
    );
    round.token = { id: token.tokenId, ...(airline !== undefined ? { airline } : {}) };
  }
  const tokenId = round.token.id;
  const priced = await trail.step('repriceWithToken', () =>
    ndc.repriceWithToken({ ctx, offers, previous: firstPrice, tokenId }),
  );
  showPrice(trail.state, priced);
  showExtras(trail.state.extras, priced);
  await guard.check(priced.total.value, round);
  return { shop, priced, tokenId };
}

/**
 * One offer per direction, by the selection rules, across the airlines that answered; the
 * airline of the winner owns the rest of the booking. NO_OFFERS when none has every direction.
 */
function chooseOffers(
  saga: Saga,
  answers: AirlineAnswer<ShopResult>[],
  skipped: AirlineReason[],
  travel: Travel,
): { shop: ShopResult; chosen: ChosenOffer[] } {
  const { intent, trail } = saga;
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
    if (saga.airlines === undefined || saga.airlines.length <= 1)
      throw ApplicationFailure.nonRetryable(missing[0]!.message, FailureType.NO_OFFERS);
    throw noAirline('shop', [...skipped, ...missing]);
  }
  const winner = answers.find((answer) => nameOf(answer) === selection.chosen!.airline)!;
  chooseAirline(saga, winner.route);
  const offers = selection.chosen.offers;
  const shop = winner.result;
  trail.state.chosenOffer = {
    offerIds: offers.map((offer) => offer.offerId),
    ...(offers[0]!.priceClass !== undefined ? { priceClass: offers[0]!.priceClass } : {}),
    ...travel,
    shoppingResponseId: shop.shoppingResponseId,
  };
  if (saga.airlines !== undefined)
    trail.state.airlines = airlineComparison(selection, skipped, missing, intent.currency);
  return {
    shop,
    chosen: offers.map((offer) => ({
      offerId: offer.offerId,
      owner: offer.owner,
      responseId: shop.shoppingResponseId,
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

function showPrice(state: BookingState, priced: PriceResult): void {
  state.pricedTotal = priced.total;
  if (priced.surcharge !== undefined) state.surcharge = priced.surcharge;
  else delete state.surcharge;
}
