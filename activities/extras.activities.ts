/**
 * Extras activities: `listServices` (ServiceListRQ per chosen offer: the services on sale) and
 * `readSeatMaps` (SeatAvailabilityRQ per chosen offer: the seat maps).
 */
import { passengerIds, seatAvailabilityRq, serviceListRq } from '../src/booking/intent-to-ndc';
import type { SeatMaps } from '../src/booking/booking.extras';
import { seatMaps, serviceOptions } from '../src/booking/extras-from-ndc';
import type { AirlineCall } from './airline-call';
import type { ExtrasInput, SeatMapResult, ServiceListResult } from './booking.activities.types';

export function createExtrasActivities(call: AirlineCall) {
  const { client, stamp, options, run } = call;

  /** ServiceListRQ for each chosen offer (one direction per request, as the airline asks). */
  async function listServices(input: ExtrasInput): Promise<ServiceListResult> {
    return run(async (attempt) => {
      const out: ServiceListResult = { options: [], attempt };
      for (const [direction, offer] of input.offers.entries()) {
        const rq = serviceListRq(input.ctx, stamp(input.ctx), offer.responseId, [offer]);
        const rs = await client.serviceList(rq, options(input.ctx));
        if (rs.aLaCarteOffer !== undefined) {
          out.aLaCarteOfferId = rs.aLaCarteOffer.offerId;
          out.owner = rs.aLaCarteOffer.owner;
        }
        out.options.push(...serviceOptions(rs, direction, input.ctx.currency));
      }
      return out;
    });
  }

  /** SeatAvailabilityRQ for each chosen offer; no seat map at all gives `maps` absent. */
  async function readSeatMaps(input: ExtrasInput): Promise<SeatMapResult> {
    return run(async (attempt) => {
      const ids = passengerIds(input.ctx.passengers);
      const ptcOf = (id: string) => input.ctx.passengers[ids.indexOf(id)]?.type;
      let maps: SeatMaps | undefined;
      for (const [direction, offer] of input.offers.entries()) {
        const rs = await client.seatAvailability(
          seatAvailabilityRq(input.ctx, stamp(input.ctx), offer),
          options(input.ctx),
        );
        const segments = seatMaps(rs, direction, input.ctx.currency, ptcOf);
        if (rs.aLaCarteOffer === undefined || segments.length === 0) continue;
        maps ??= {
          aLaCarteOfferId: rs.aLaCarteOffer.offerId,
          owner: rs.aLaCarteOffer.owner,
          responseId: offer.responseId,
          segments: [],
        };
        maps.segments.push(...segments);
      }
      return { ...(maps !== undefined ? { maps } : {}), attempt };
    });
  }

  return { listServices, readSeatMaps };
}
