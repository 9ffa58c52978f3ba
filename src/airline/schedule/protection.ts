/**
 * Moving an order's travellers off a cancelled flight (docs/airline-service.md, "Schedule
 * changes"): the journey holding it is replaced by one on the same route, on the flight the
 * airline names or else its next one with seats for the party (later that day, then the next
 * days), in the same price class when it has seats, else another. The travellers pay nothing and
 * get nothing back: the new items keep the prices of those they replace. Pure but for the seats
 * sold it reads.
 */
import { add, currencyScale } from '../../common/decimal';
import type { MoneyOfferItem } from '../../ndc/ndc.model';
import { AirlineError } from '../airline.errors';
import { changeOffers, type ChangeQuote } from '../servicing/change-offers';
import type { LoadedOrder } from '../servicing/order-book';
import { fareItemOf, type SoldReader } from '../servicing/order-fares';
import type { ChangePlan, SoldJourney } from '../servicing/servicing.types';
import type { World } from '../world/world';
import { addDays, dateOf } from '../world/world.dates';
import { ListsBuilder } from '../world/world.lists';

/** How many days after the cancelled flight the airline looks for its next one. */
export const PROTECTION_DAYS = 7;

/** A flight as the simulator names it: designator and number (`ZZ1234`) on its scheduled date. */
export interface DatedFlight {
  flight: string;
  date: string;
}

/** The move: its plan (at no cost) and the first flight of the new journey. */
export interface Protection {
  plan: ChangePlan;
  alternative: DatedFlight;
}

/**
 * The move of `loaded`'s journey `replaced` (it holds the cancelled `cancelled` flight) to
 * `wanted`, or to the next flight with seats; undefined when there is none.
 */
export function protection(
  world: World,
  loaded: LoadedOrder,
  replaced: SoldJourney,
  target: { cancelled: DatedFlight; wanted?: DatedFlight; sold: SoldReader; now: Date },
): Protection | undefined {
  const dates = target.wanted
    ? [target.wanted.date]
    : Array.from({ length: PROTECTION_DAYS + 1 }, (_, i) => addDays(replaced.date, i));
  const leaving = departureOf(world, replaced);
  for (const date of dates) {
    const quotes = quotesOn(world, loaded, replaced, date, target).filter((q) => {
      const first = firstSegment(world, q);
      if (target.wanted) return first.flightNumber === target.wanted.flight;
      return world.departureOf(first).getTime() > leaving;
    });
    const best = quotes.sort((a, b) => rank(world, a, replaced) - rank(world, b, replaced))[0];
    if (best !== undefined)
      return { plan: atOldPrices(best, loaded), alternative: { flight: firstSegment(world, best).flightNumber, date } };
  }
  return undefined;
}

/** Change offers for `replaced` on `date` in every price class (none: empty). */
function quotesOn(
  world: World,
  loaded: LoadedOrder,
  replaced: SoldJourney,
  date: string,
  target: { sold: SoldReader; now: Date },
): ChangeQuote[] {
  const { content, order } = loaded;
  const deleteItemIds = content.passengers.flatMap((p) => {
    const item = fareItemOf(content, replaced.flightKey, p.passengerId);
    return item ? [item.offerItemId] : [];
  });
  const ctx = {
    world,
    sold: target.sold,
    now: target.now,
    expiresAt: target.now.toISOString(),
    responseId: `${order.orderId}-P${order.version + 1}`,
    lists: new ListsBuilder(world),
  };
  if (date < dateOf(target.now)) return [];
  try {
    return changeOffers(ctx, loaded, {
      legs: [{ departureCode: replaced.from, arrivalCode: replaced.to, date }],
      deleteItemIds,
    });
  } catch (error) {
    if (error instanceof AirlineError && error.code === 'NO_OFFERS') return [];
    throw error;
  }
}

/** Earlier departures first, the order's own price class before the others on the same flight. */
function rank(world: World, quote: ChangeQuote, replaced: SoldJourney): number {
  const sameClass = quote.plan.addJourneys[0]?.priceClass === replaced.priceClass ? 0 : 1;
  return world.departureOf(firstSegment(world, quote)).getTime() * 2 + sameClass;
}

function firstSegment(world: World, quote: ChangeQuote) {
  const journey = quote.plan.addJourneys[0]!;
  return world.journeyOf(journey.flights, journey.date).segments[0]!;
}

function departureOf(world: World, sold: SoldJourney): number {
  return world.departureOf(world.journeyOf(sold.flights, sold.date).segments[0]!).getTime();
}

/** The quote's plan with each new fare item at the price of the item it replaces: nothing due, nothing refunded, no fee. */
function atOldPrices(quote: ChangeQuote, loaded: LoadedOrder): ChangePlan {
  const { content } = loaded;
  const zero = { value: add(currencyScale(content.currency), '0'), currency: content.currency };
  const addItems = quote.plan.addItems.map((item, i): MoneyOfferItem => {
    const replacedId = quote.offer.addItems[i]?.replacesOrderItemIds?.[0];
    const old = content.items.find((x) => x.offerItemId === replacedId);
    if (old === undefined) return item;
    return {
      ...item,
      priceDetail: old.priceDetail,
      fareDetails: item.fareDetails.map((detail, d) => {
        const was = old.fareDetails[d] ?? old.fareDetails[0]!;
        return { ...detail, total: was.total, base: was.base, taxes: was.taxes };
      }),
    };
  });
  return { ...quote.plan, addItems, difference: zero, penalty: zero };
}
