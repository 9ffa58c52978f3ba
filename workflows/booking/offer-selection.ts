/**
 * Offer selection, pure and deterministic (runs inside the workflow).
 */
import type { OfferSummary } from '../../activities/booking.activities.types';
import { add, compare } from '../../src/common/decimal';

/**
 * Picks one offer per direction (0 = outbound, 1 = return when `directions` is 2): the cheapest
 * offer of the requested price class (matched case-insensitively against the class code or
 * name), else the cheapest offer. Ties keep the airline's order. Returns `undefined` for a
 * direction without a matching offer.
 */
export function selectOffers(
  offers: OfferSummary[],
  directions: number,
  priceClass?: string,
): (OfferSummary | undefined)[] {
  const wanted = priceClass?.trim().toUpperCase();
  const chosen: (OfferSummary | undefined)[] = [];
  for (let direction = 0; direction < directions; direction += 1) {
    let best: OfferSummary | undefined;
    for (const offer of offers) {
      if (offer.direction !== direction) continue;
      if (wanted !== undefined && wanted !== '') {
        const code = offer.priceClass?.toUpperCase();
        const name = offer.priceClassName?.toUpperCase();
        if (code !== wanted && name !== wanted) continue;
      }
      if (best === undefined || compare(offer.total.value, best.total.value) < 0) best = offer;
    }
    chosen.push(best);
  }
  return chosen;
}

/** One airline's offers, in preference order of the airlines. */
export interface AirlineOffers {
  airline: string;
  offers: OfferSummary[];
}

/** The best offers of one airline: one per direction, and their total. */
export interface AirlinePick {
  airline: string;
  offers: OfferSummary[];
  /** Sum of the offers' totals, in `currency`. */
  total: string;
}

export interface AirlineSelection {
  /** The winner, when some airline has an offer for every direction in the currency. */
  chosen?: AirlinePick;
  /** Every airline with a complete pick, in preference order. */
  picks: AirlinePick[];
  /** Airlines without one: the first direction without an offer, and the currency of offers left out. */
  missing: { airline: string; direction: number; leftOutCurrency?: string }[];
}

/**
 * Picks the best offer across airlines: each airline's pick by {@link selectOffers} (offers in
 * another currency than the booking's cannot be compared and are left out), then the lowest
 * total; on a tie the airline listed first wins (the intent's `airlines` order, else the
 * configuration's).
 */
export function selectAcrossAirlines(
  airlines: readonly AirlineOffers[],
  directions: number,
  currency: string,
  priceClass?: string,
): AirlineSelection {
  const picks: AirlinePick[] = [];
  const missing: AirlineSelection['missing'] = [];
  for (const { airline, offers } of airlines) {
    const comparable = offers.filter((offer) => offer.total.currency === currency);
    const selected = selectOffers(comparable, directions, priceClass);
    const gap = selected.findIndex((offer) => offer === undefined);
    if (gap >= 0) {
      const other = offers.find((offer) => offer.total.currency !== currency);
      missing.push({
        airline,
        direction: gap,
        ...(other !== undefined ? { leftOutCurrency: other.total.currency } : {}),
      });
      continue;
    }
    const chosen = selected.map((offer) => offer!);
    const values = chosen.map((offer) => offer.total.value);
    const scale = Math.max(...values.map((value) => value.split('.')[1]?.length ?? 0));
    picks.push({ airline, offers: chosen, total: add(scale, ...values) });
  }
  let best: AirlinePick | undefined;
  for (const pick of picks) if (best === undefined || compare(pick.total, best.total) < 0) best = pick;
  return { ...(best !== undefined ? { chosen: best } : {}), picks, missing };
}
