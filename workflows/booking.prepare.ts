/**
 * Phase 1 of the booking saga, prepare the offer: [calendar] -> shop -> select -> price -> guard
 * -> [tokenise] -> repriceWithToken -> guard.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { ChosenOffer, PriceResult, ShopResult } from '../activities/booking.activities.types';
import { FailureType } from '../src/booking/booking.failures';
import type { BookingState } from '../src/booking/booking.model';
import { chooseTravelDates } from './booking.decisions';
import { priceWithExtras, showExtras } from './booking.extras';
import { selectOffers } from './offer-selection';
import { ndc, type ReadyToOrder, type Round, type Saga } from './booking.saga';

// ------------------------------------------------------------------ phase 1: prepare the offer

export interface Travel {
  departureDate: string;
  returnDate?: string;
}

/** The preferred dates, or the cheapest of a calendar search around them (`flexibleDays`). */
export async function travelDates({ ctx, intent, trail }: Saga): Promise<Travel> {
  const { journey } = intent;
  const preferred = {
    departureDate: journey.departureDate,
    ...(journey.returnDate !== undefined ? { returnDate: journey.returnDate } : {}),
  };
  const flexibleDays = journey.flexibleDays ?? 0;
  if (flexibleDays <= 0) return preferred;
  const calendar = await trail.step('calendar', () =>
    ndc.calendar({ ctx, origin: journey.origin, destination: journey.destination, ...preferred, flexibleDays }),
  );
  return chooseTravelDates(calendar.prices, preferred);
}

/** Shop, select, price, guard, tokenise (once per token), reprice with the token, guard. */
export async function prepareOffer(saga: Saga, travel: Travel, round: Round): Promise<ReadyToOrder> {
  const { ctx, intent, trail, guard } = saga;
  const { journey } = intent;
  const shop = await trail.step(
    'shop',
    () => ndc.shop({ ctx, origin: journey.origin, destination: journey.destination, ...travel }),
    round.reason,
  );
  const chosen = chooseOffers(saga, shop, travel);

  const { priced: firstPrice, offers } = await priceWithExtras(saga, chosen);
  showPrice(trail.state, firstPrice);
  await guard.check(firstPrice.total.value, round);

  if (round.tokenId === undefined) {
    const token = await trail.step('tokenise', () =>
      ndc.tokenise({ card: intent.payment.card, correlationId: ctx.correlationId }),
    );
    round.tokenId = token.tokenId;
  }
  const tokenId = round.tokenId;
  const priced = await trail.step('repriceWithToken', () =>
    ndc.repriceWithToken({ ctx, offers, previous: firstPrice, tokenId }),
  );
  showPrice(trail.state, priced);
  showExtras(trail.state.extras, priced);
  await guard.check(priced.total.value, round);
  return { shop, priced, tokenId };
}

/** One offer per direction by the selection rules; NO_OFFERS when a direction has none. */
function chooseOffers({ intent, trail }: Saga, shop: ShopResult, travel: Travel): ChosenOffer[] {
  const directions = travel.returnDate !== undefined ? 2 : 1;
  const priceClass = intent.selection?.priceClass;
  const selected = selectOffers(shop.offers, directions, priceClass);
  const missing = selected.findIndex((offer) => offer === undefined);
  if (missing >= 0) {
    const what = priceClass !== undefined ? ` in price class ${priceClass}` : '';
    throw ApplicationFailure.nonRetryable(
      `no ${missing === 0 ? 'outbound' : 'return'} offer${what} on ${missing === 0 ? travel.departureDate : travel.returnDate}`,
      FailureType.NO_OFFERS,
    );
  }
  const offers = selected.map((offer) => offer!);
  trail.state.chosenOffer = {
    offerIds: offers.map((offer) => offer.offerId),
    ...(offers[0]!.priceClass !== undefined ? { priceClass: offers[0]!.priceClass } : {}),
    ...travel,
    shoppingResponseId: shop.shoppingResponseId,
  };
  return offers.map((offer) => ({
    offerId: offer.offerId,
    owner: offer.owner,
    responseId: shop.shoppingResponseId,
    offerItems: offer.offerItems,
  }));
}

function showPrice(state: BookingState, priced: PriceResult): void {
  state.pricedTotal = priced.total;
  if (priced.surcharge !== undefined) state.surcharge = priced.surcharge;
  else delete state.surcharge;
}
