/**
 * The OfferItem of a fare, as AirShopping (one item per group of passengers paying the same) and
 * OfferPrice (one item per passenger and direction) write it.
 */
import type { MoneyOfferItem } from '../../ndc/ndc.model';
import type { World } from '../world/world';
import type { Journey } from '../world/world.types';
import { type PassengerPrice, type SegmentBucket, money } from './pricing';

/** What a fare item is made of. */
export interface FareItemSpec {
  offerItemId: string;
  /** The passengers of the item; each pays `price`. */
  passengerRefs: string[];
  price: PassengerPrice;
  currency: string;
  journey: Journey;
  /** The booking class of each segment of the journey. */
  buckets: SegmentBucket[];
  /** Key of the item's PriceClass in the DataLists. */
  priceClassRef: string;
  /** Key of the price class's bundle ServiceDefinition in the DataLists; absent: no bundle. */
  bundleRef?: string;
}

/**
 * A fare's OfferItem: the price of one passenger, a flight service (`-S1`) over the journey and,
 * with a bundle, a bundle service (`-S2`) over its segments, and one fare detail with a fare
 * component per segment (booking class, cabin, price class).
 */
export function fareItem(world: World, f: FareItemSpec): MoneyOfferItem {
  const { offerItemId, passengerRefs, journey } = f;
  const total = () => money(f.price.total, f.currency);
  const base = () => money(f.price.base, f.currency);
  const taxes = () => money(f.price.taxes, f.currency);
  const bundle = f.bundleRef
    ? [
        {
          serviceId: `${offerItemId}-S2`,
          passengerRefs,
          serviceDefinitionRef: { ref: f.bundleRef, segmentRefs: journey.segments.map((s) => s.segmentKey) },
        },
      ]
    : [];
  return {
    offerItemId,
    priceDetail: { total: total(), base: base(), taxes: taxes() },
    services: [{ serviceId: `${offerItemId}-S1`, passengerRefs, flightRefs: [journey.flightKey] }, ...bundle],
    fareDetails: [
      {
        passengerRefs,
        total: total(),
        taxes: taxes(),
        base: base(),
        fareComponents: f.buckets.map((b) => ({
          rbd: b.rbd,
          cabinTypeCode: world.data.cabin.code,
          cabinTypeName: world.data.cabin.name,
          priceClassRef: f.priceClassRef,
          segmentRefs: {
            onPoint: b.segment.flight.from,
            offPoint: b.segment.flight.to,
            segmentKeys: [b.segment.segmentKey],
          },
        })),
      },
    ],
  };
}
