/**
 * Reads the airline's extras messages into what the saga keeps (small, plain, serialisable):
 * ServiceListRS -> {@link ServiceOption}s, SeatAvailabilityRS -> {@link SegmentSeatMap}s, and the
 * extras of an OfferPriceRS -> {@link ExtraPick}s. Pure.
 */
import type { ALaCarteOfferItem, SeatAvailabilityRs, SeatMapSeat, ServiceListRs } from '../ndc/extras.model';
import type { DataLists, OfferItem, OfferPriceRs, Money } from '../ndc/ndc.model';
import { requireMoney } from '../ndc/require-element';
import type { ExtraPick, SegmentSeatMap, ServiceOption } from './booking.extras';

type Success<T> = Extract<T, { kind: 'success' }>;

/** Our code of a service definition id: `SD__YN1` -> `YN1` (other ids as they are). */
export function serviceCode(definitionId: string): string {
  return definitionId.startsWith('SD__') ? definitionId.slice(4) : definitionId;
}

function unitPrice(item: ALaCarteOfferItem, currency: string): Money {
  return requireMoney(item.unitPrice, 'ALaCarteOfferItem/UnitPriceDetail/TotalAmount', {
    currency,
    otherPrice: item.otherPrice,
  });
}

/** The services of a ServiceListRS for the offer of `direction`. */
export function serviceOptions(rs: Success<ServiceListRs>, direction: number, currency: string): ServiceOption[] {
  return (rs.aLaCarteOffer?.offerItems ?? []).map((item) => ({
    itemId: item.offerItemId,
    code: serviceCode(item.serviceDefinitionRef),
    passengerIds: item.passengerRefs,
    segmentKeys: item.segmentRefs,
    direction,
    price: unitPrice(item, currency),
  }));
}

const CHARACTERISTICS: Record<string, string> = {
  W: 'window',
  A: 'aisle',
  '9': 'middle',
  E: 'exit',
  L: 'legroom',
  '1A': 'noInfant',
};

/** The seat maps of a SeatAvailabilityRS for the offer of `direction`. */
export function seatMaps(
  rs: Success<SeatAvailabilityRs>,
  direction: number,
  currency: string,
  ptcOf: (passengerId: string) => string | undefined,
): SegmentSeatMap[] {
  const items = new Map((rs.aLaCarteOffer?.offerItems ?? []).map((i) => [i.offerItemId, i]));
  return rs.seatMaps.map((map) => ({
    segment: map.segmentRef,
    flight: flightOf(rs.dataLists, map.segmentRef),
    direction,
    seats: map.cabins.flatMap((cabin) =>
      cabin.rows.flatMap((row) =>
        row.seats.map((seat) => seatView(row.number, seat, items, currency, ptcOf, row.characteristics)),
      ),
    ),
  }));
}

function seatView(
  row: number,
  seat: SeatMapSeat,
  items: ReadonlyMap<string, ALaCarteOfferItem>,
  currency: string,
  ptcOf: (passengerId: string) => string | undefined,
  rowCodes: readonly string[],
): SegmentSeatMap['seats'][number] {
  const priced = seat.offerItemRefs.map((id) => items.get(id)).filter((i): i is ALaCarteOfferItem => i !== undefined);
  const byType: Record<string, string> = {};
  for (const item of priced) {
    for (const ref of item.passengerRefs) {
      const ptc = ptcOf(ref);
      if (ptc !== undefined && byType[ptc] === undefined) byType[ptc] = item.offerItemId;
    }
  }
  const codes = new Set([...seat.characteristics, ...rowCodes]);
  const first = priced[0];
  const price = first !== undefined ? unitPrice(first, currency) : undefined;
  return {
    seat: `${row}${seat.column}`,
    row,
    column: seat.column,
    available: (seat.status === undefined || seat.status === 'F') && priced.length > 0,
    ...(first !== undefined ? { zone: serviceCode(first.serviceDefinitionRef) } : {}),
    ...(price !== undefined ? { price: price.value, currency: price.currency } : {}),
    characteristics: [...codes].map((c) => CHARACTERISTICS[c]).filter((c): c is string => c !== undefined),
    items: byType,
  };
}

function flightOf(lists: DataLists, segmentKey: string): string {
  const seg = lists.flightSegments?.find((s) => s.segmentKey === segmentKey);
  return seg ? `${seg.marketingCarrier.airlineId}${seg.marketingCarrier.flightNumber}` : segmentKey;
}

/** True for an OfferPriceRS item that is an extra: no fare, not the card fee, a service or a seat. */
function isExtraItem(item: OfferItem): boolean {
  return (
    item.fareDetails.length === 0 &&
    item.services.length > 0 &&
    item.services.every(
      (s) =>
        s.selectedSeat !== undefined ||
        (s.serviceDefinitionRef !== undefined && !/CCF2/.test(s.serviceDefinitionRef.ref)),
    )
  );
}

/** The extras priced into an OfferPriceRS, each against its passenger (index by `passengerIds`). */
export function pricedExtras(
  rs: Success<OfferPriceRs>,
  passengerIds: readonly string[],
  currency: string,
): ExtraPick[] {
  return rs.pricedOffer.offerItems.filter(isExtraItem).flatMap((item) =>
    item.services.flatMap((s) =>
      s.passengerRefs.map((pax) => {
        const seat = s.selectedSeat;
        const price = requireMoney(item.priceDetail.total, 'OfferItem/TotalPriceDetail/TotalAmount', {
          currency,
          otherPrice: item.priceDetail.otherPrice,
        });
        return {
          itemId: item.offerItemId,
          passengerId: pax,
          passenger: passengerIds.indexOf(pax),
          code: serviceCode(seat ? seat.serviceDefinitionRef : s.serviceDefinitionRef!.ref),
          segmentKeys: seat ? [seat.segmentRef] : (s.serviceDefinitionRef!.segmentRefs ?? []),
          ...(seat ? { seat: `${seat.row}${seat.column}` } : {}),
          price,
        };
      }),
    ),
  );
}

/** Texts of the OfferPriceRS warnings `281` (a seat that could not be requested). */
export function seatWarnings(rs: Success<OfferPriceRs>): string[] {
  return (rs.warnings ?? []).filter((w) => w.code === '281').map((w) => w.text);
}
