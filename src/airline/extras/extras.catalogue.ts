/**
 * The extras of the airline's world, as pure functions: which services and seat zones a passenger
 * of a price class may buy and at what price, the seats of an aircraft type (zones, exit rows,
 * seats an infant's lap holder may not take), and the ids of à-la-carte offers and items.
 *
 * An à-la-carte item id names what it sells, so pricing needs no stored ServiceList: `ALC-<code>-
 * <PTC>-<scope>`, the scope being the FlightKey of a direction (services) or the SegmentKey of a
 * flight (seats).
 */
import type { Passenger } from '../../ndc/ndc.model';
import type { World } from '../world/world';
import type { WorldAircraft } from '../world/world.types';

/** The ALaCarteOffer OfferID of the extras of a shopping response. */
export function aLaCarteOfferId(shoppingResponseId: string): string {
  return `ALC__${shoppingResponseId}`;
}

/** True for an OfferID made by {@link aLaCarteOfferId}. */
export function isALaCarteOfferId(offerId: string): boolean {
  return offerId.startsWith('ALC__');
}

/** What an à-la-carte item sells: a service or seat zone `code` to passengers of `ptc` on `scope`. */
export interface ExtraItemKey {
  code: string;
  ptc: string;
  /** FlightKey (a service, for the whole direction) or SegmentKey (a seat). */
  scope: string;
}

export function extraItemId(k: ExtraItemKey): string {
  return `ALC-${k.code}-${k.ptc}-${k.scope}`;
}

const ITEM_ID = /^ALC-([A-Z0-9_]+)-([A-Z0-9]{3})-((?:FLT|SEG)__[A-Za-z0-9_]+)$/;

/** The key of an id made by {@link extraItemId}, or undefined for anything else. */
export function parseExtraItemId(id: string): ExtraItemKey | undefined {
  const m = ITEM_ID.exec(id);
  return m ? { code: m[1], ptc: m[2], scope: m[3] } : undefined;
}

/** True when `code` is a seat zone of the world. */
export function isSeatZone(world: World, code: string): boolean {
  return world.data.extras?.seatZones.some((z) => z.code === code) ?? false;
}

/**
 * Base-currency price of service `code` for a passenger of `ptc` in price class `priceClass`, or
 * undefined when that passenger cannot buy it (not for the type, or not sold in that class).
 */
export function servicePrice(world: World, code: string, priceClass: string, ptc: string): string | undefined {
  const s = world.data.extras?.services.find((x) => x.code === code);
  if (!s || !s.passengerTypes.includes(ptc)) return undefined;
  return s.prices[priceClass];
}

/** Base-currency price of a seat in zone `code` in `priceClass`, or undefined (no seat sold so). */
export function zonePrice(world: World, code: string, priceClass: string): string | undefined {
  return world.data.extras?.seatZones.find((z) => z.code === code)?.prices[priceClass];
}

/** A seat of an aircraft type. */
export interface SeatSpec {
  row: number;
  column: string;
  /** `12A`. */
  label: string;
  zone: string;
  /** `window`, `aisle` or `middle`. */
  position: 'window' | 'aisle' | 'middle';
  exitRow: boolean;
  /** True where an adult holding an infant may not sit (exit rows). */
  infantBlocked: boolean;
}

/** Column letters with their place: window at the ends, aisle beside a gap of the layout. */
export function layoutColumns(aircraft: WorldAircraft): { designator: string; position: SeatSpec['position'] }[] {
  const out: { designator: string; position: SeatSpec['position'] }[] = [];
  const chars = [...aircraft.layout];
  chars.forEach((c, i) => {
    if (c === ' ') return;
    const first = i === 0;
    const last = i === chars.length - 1;
    const position = first || last ? 'window' : chars[i - 1] === ' ' || chars[i + 1] === ' ' ? 'aisle' : 'middle';
    out.push({ designator: c, position });
  });
  return out;
}

/** The zone of `row`: the first zone of the aircraft whose rows hold it. */
export function zoneOfRow(aircraft: WorldAircraft, row: number): string | undefined {
  return aircraft.zones.find((z) => row >= z.firstRow && row <= z.lastRow)?.code;
}

/** Every seat of the aircraft type, row by row, left to right (rows without a zone are not sold). */
export function seatsOf(aircraft: WorldAircraft): SeatSpec[] {
  const cols = layoutColumns(aircraft);
  const out: SeatSpec[] = [];
  for (let row = aircraft.firstRow; row <= aircraft.lastRow; row++) {
    const zone = zoneOfRow(aircraft, row);
    if (zone === undefined) continue;
    const exitRow = aircraft.exitRows.includes(row);
    for (const c of cols) {
      out.push({
        row,
        column: c.designator,
        label: `${row}${c.designator}`,
        zone,
        position: c.position,
        exitRow,
        infantBlocked: exitRow,
      });
    }
  }
  return out;
}

/** The seat at `row` and `column` of the aircraft type, or undefined. */
export function findSeat(aircraft: WorldAircraft, row: number, column: string): SeatSpec | undefined {
  if (row < aircraft.firstRow || row > aircraft.lastRow) return undefined;
  const col = layoutColumns(aircraft).find((c) => c.designator === column);
  const zone = zoneOfRow(aircraft, row);
  if (!col || zone === undefined) return undefined;
  const exitRow = aircraft.exitRows.includes(row);
  return {
    row,
    column,
    label: `${row}${column}`,
    zone,
    position: col.position,
    exitRow,
    infantBlocked: exitRow,
  };
}

/**
 * The adults holding the infants: the first adults of the passenger list, one per infant (17.2's
 * PassengerList carries no association here, so this is the rule, documented in
 * docs/airline-world.md).
 */
export function lapHolders(passengers: readonly Passenger[]): Set<string> {
  const infants = passengers.filter((p) => p.ptc === 'INF').length;
  return new Set(
    passengers
      .filter((p) => p.ptc === 'ADT')
      .slice(0, infants)
      .map((p) => p.passengerId),
  );
}
