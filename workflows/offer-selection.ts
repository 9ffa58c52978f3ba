/**
 * Offer selection, pure and deterministic (runs inside the workflow).
 */
import type { OfferSummary } from '../activities/booking.activities.types';
import { compare } from '../src/common/decimal';

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
