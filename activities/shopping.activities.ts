/**
 * Shopping activities: `calendar` (AirShoppingRQ over a date range, the cheapest total per
 * direction and date) and `shop` (a day search, offers reduced to what selection and pricing need).
 */
import type { OfferItem, SelectedOfferItem } from '../src/ndc/ndc.model';
import { airShoppingRq, calendarQuery, dayQuery } from '../src/booking/intent-to-ndc';
import { itemPassengers } from '../src/booking/card-surcharge';
import { flightOriginDestination } from '../src/ndc/references';
import { requireMoney } from '../src/ndc/require-element';
import { NdcInvalidResponseError, type DayShoppingRs } from '../src/ndc-client';
import { FailureType } from '../src/booking/booking.failures';
import { failure, type AirlineCall } from './airline-call';
import type {
  CalendarInput,
  CalendarPrice,
  CalendarResult,
  OfferSummary,
  ShopInput,
  ShopResult,
} from './booking.activities.types';

export function createShoppingActivities(call: AirlineCall) {
  const { client, stamp, options, run } = call;

  async function calendar(input: CalendarInput): Promise<CalendarResult> {
    return run(async (attempt) => {
      const rs = await client.airShopping(
        airShoppingRq(input.ctx, stamp(input.ctx), calendarQuery(input)),
        options(input.ctx),
      );
      if (rs.kind !== 'calendar')
        throw new NdcInvalidResponseError('calendar search answered with a day search response');
      const odCodes = new Map(
        (rs.dataLists.originDestinations ?? []).map((od) => [od.originDestinationKey, od.departureCode]),
      );
      const prices: CalendarPrice[] = [];
      rs.airlineOffers.forEach((group, index) => {
        for (const entry of group.priceCalendar) {
          // A PriceCalendar of several dates prices them together (e.g. out and back): each of its
          // dates is offered at that combined total, so the cheapest combination wins in both directions.
          for (const { date, originDestinationRef } of entry.dates) {
            const departure = originDestinationRef !== undefined ? odCodes.get(originDestinationRef) : undefined;
            const direction = departure !== undefined ? directionOf(departure, input) : index;
            prices.push({ direction, date, price: entry.totalPrice.value });
          }
        }
      });
      return { prices, attempt };
    });
  }

  async function shop(input: ShopInput): Promise<ShopResult> {
    return run(async (attempt) => {
      const rs = await client.airShopping(
        airShoppingRq(input.ctx, stamp(input.ctx), dayQuery(input)),
        options(input.ctx),
      );
      if (rs.kind !== 'day') throw new NdcInvalidResponseError('day search answered with a calendar response');
      const offers = offerSummaries(rs, input);
      if (offers.length === 0) {
        throw failure(
          `no offers for ${input.origin}-${input.destination} on ${input.departureDate}`,
          FailureType.NO_OFFERS,
          { attempt },
        );
      }
      return { shoppingResponseId: rs.shoppingResponseId, offers, attempt };
    });
  }

  return { calendar, shop };
}

/** Each offer of a day search: id, direction, price class, total, items. */
function offerSummaries(rs: DayShoppingRs, input: ShopInput): OfferSummary[] {
  const odDeparture = new Map(
    (rs.dataLists.originDestinations ?? []).map((od) => [od.originDestinationKey, od.departureCode]),
  );
  const classes = new Map((rs.dataLists.priceClasses ?? []).map((pc) => [pc.priceClassId, pc]));
  return rs.airlineOffers.flatMap((group) =>
    group.offers.map((offer): OfferSummary => {
      const flight = offer.flightsOverview[0];
      // FlightRef@ODRef is optional in the XSD: else the OriginDestination listing the flight.
      const odKey = flight !== undefined ? flightOriginDestination(flight, rs.dataLists) : undefined;
      const priceClass = flight?.priceClassRef !== undefined ? classes.get(flight.priceClassRef) : undefined;
      const code = priceClass?.code ?? flight?.priceClassRef?.replace(/^PC__/, '');
      return {
        offerId: offer.offerId,
        owner: offer.owner,
        direction: directionOf(odKey !== undefined ? odDeparture.get(odKey) : undefined, input),
        ...(code !== undefined ? { priceClass: code } : {}),
        ...(priceClass?.name !== undefined ? { priceClassName: priceClass.name } : {}),
        total: requireMoney(offer.totalPrice, 'Offer/TotalPrice', {
          currency: input.ctx.currency,
          otherPrice: offer.otherPrice,
        }),
        offerItems: selectedItems(offer.offerItems),
      };
    }),
  );
}

/** The items of an offer as a pricing selects them: id and passengers. */
export function selectedItems(items: readonly OfferItem[]): SelectedOfferItem[] {
  return items.map((item) => ({ offerItemId: item.offerItemId, passengerRefs: itemPassengers(item) }));
}

/** 0 for the outbound, 1 for a direction departing from the destination. */
function directionOf(departureCode: string | undefined, input: { origin: string; destination: string }): number {
  return departureCode === input.destination && departureCode !== input.origin ? 1 : 0;
}
