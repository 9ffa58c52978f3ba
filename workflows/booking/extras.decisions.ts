/**
 * The saga's decisions about extras, as pure functions (docs/orchestrator.md "Extras"): which
 * service items answer the intent's bags, which seats to take by the seat rules, and the
 * à-la-carte selection an OfferPriceRQ sends. Workflow code: deterministic, no I/O.
 */
import type {
  BookingExtras,
  ExtraPick,
  SeatChoice,
  SeatMaps,
  SeatRequest,
  SeatView,
  SegmentSeatMap,
  ServiceOption,
} from '../../src/booking/booking.extras';
import type { IntentPassenger } from '../../src/booking/booking.model';
import type { OfferToPrice } from '../../src/booking/intent-to-ndc';
import { passengerIds } from '../../src/booking/intent-to-ndc';
import { add, compare } from '../../src/common/decimal';

/** A passenger as the decisions see it: index in the intent, NDC PassengerID, type. */
export interface Pax {
  index: number;
  id: string;
  type: IntentPassenger['type'];
}

export function paxOf(passengers: readonly IntentPassenger[]): Pax[] {
  const ids = passengerIds(passengers);
  return passengers.map((p, index) => ({ index, id: ids[index]!, type: p.type }));
}

/** The adults holding the infants on their laps: the first adults, one per infant. */
export function lapHolders(pax: readonly Pax[]): Set<string> {
  const infants = pax.filter((p) => p.type === 'INF').length;
  return new Set(
    pax
      .filter((p) => p.type === 'ADT')
      .slice(0, infants)
      .map((p) => p.id),
  );
}

const DIRECTION_NAMES = ['outbound', 'return'];

/**
 * The service items for the intent's `bags`: per request and direction (`both`: every direction
 * of the trip), the item of that code that is sold to that passenger on that direction.
 * `missing` names what is not on sale (the booking goes on without it).
 */
export function pickBags(
  bags: NonNullable<BookingExtras['bags']>,
  pax: readonly Pax[],
  options: readonly ServiceOption[],
  directions: number,
): { picks: ExtraPick[]; missing: string[] } {
  const picks: ExtraPick[] = [];
  const missing: string[] = [];
  for (const bag of bags) {
    const p = pax[bag.passenger];
    if (p === undefined) continue;
    const dirs = bag.direction === 'both' ? [...Array(directions).keys()] : [bag.direction === 'outbound' ? 0 : 1];
    for (const d of dirs) {
      const option = options.find((o) => o.code === bag.code && o.direction === d && o.passengerIds.includes(p.id));
      if (option === undefined) {
        missing.push(`${bag.code} for passenger ${bag.passenger} (${DIRECTION_NAMES[d] ?? d})`);
        continue;
      }
      if (picks.some((x) => x.itemId === option.itemId && x.passengerId === p.id)) continue;
      picks.push({
        itemId: option.itemId,
        passengerId: p.id,
        passenger: p.index,
        code: option.code,
        segmentKeys: option.segmentKeys,
        price: option.price,
      });
    }
  }
  return { picks, missing };
}

/** True when passenger `p` may take `seat` (priced for the type; no exit row for a lap holder). */
export function seatAllowed(seat: SeatView, p: Pax, holders: ReadonlySet<string>): boolean {
  if (seat.items[p.type] === undefined) return false;
  return !(holders.has(p.id) && (seat.characteristics.includes('exit') || seat.characteristics.includes('noInfant')));
}

function withinCap(seat: SeatView, cap: string | undefined): boolean {
  return cap === undefined || (seat.price !== undefined && compare(seat.price, cap) <= 0);
}

/** Lower is better: preference met, then price, then row and column. */
function seatOrder(preference: SeatRequest['preference']): (a: SeatView, b: SeatView) => number {
  const miss = (s: SeatView) =>
    preference === undefined || preference === 'any' || s.characteristics.includes(preference) ? 0 : 1;
  return (a, b) =>
    miss(a) - miss(b) || compare(a.price ?? '0', b.price ?? '0') || a.row - b.row || a.column.localeCompare(b.column);
}

/** Runs of `size` seats side by side in one row (an aisle between two aisle seats breaks a run). */
export function adjacentRuns(seats: readonly SeatView[], size: number): SeatView[][] {
  const byRow = new Map<number, SeatView[]>();
  for (const s of seats) byRow.set(s.row, [...(byRow.get(s.row) ?? []), s]);
  const runs: SeatView[][] = [];
  for (const row of byRow.values()) {
    const ordered = [...row].sort((a, b) => a.column.localeCompare(b.column));
    for (let i = 0; i + size <= ordered.length; i++) {
      const run = ordered.slice(i, i + size);
      const broken = run.some(
        (s, j) =>
          j > 0 &&
          (s.column.charCodeAt(0) - run[j - 1]!.column.charCodeAt(0) !== 1 ||
            (s.characteristics.includes('aisle') && run[j - 1]!.characteristics.includes('aisle'))),
      );
      if (!broken) runs.push(run);
    }
  }
  return runs;
}

/** Gives each passenger the best allowed seat of `seats` (each seat once); undefined when one gets none. */
function assign(
  seated: readonly Pax[],
  seats: readonly SeatView[],
  holders: ReadonlySet<string>,
  order: (a: SeatView, b: SeatView) => number,
): Map<string, SeatView> | undefined {
  const out = new Map<string, SeatView>();
  // Lap holders first: they have fewer seats to choose from.
  const queue = [...seated].sort((a, b) => Number(holders.has(b.id)) - Number(holders.has(a.id)));
  for (const p of queue) {
    const used = new Set([...out.values()].map((s) => s.seat));
    const best = seats.filter((s) => !used.has(s.seat) && seatAllowed(s, p, holders)).sort(order)[0];
    if (best === undefined) return undefined;
    out.set(p.id, best);
  }
  return out;
}

/** What a run of seats costs (for ordering runs only). */
function total(seats: readonly SeatView[]): string {
  return add(4, '0', ...seats.map((s) => s.price ?? '0'));
}

/**
 * Seats for every passenger who takes one (not an infant on a lap), segment by segment, by the
 * rules: only free seats priced at most `maxPricePerSeat`, never an exit row for an adult holding
 * an infant, the party side by side in one row when `together` (default) and a row has room
 * (cheapest such row first), each passenger's seat matching `preference` where it can, cheaper
 * and further forward first. `avoid` holds `segment/seat` keys not to take (seats lost to another
 * transaction). `unseated` names the passengers no seat fits.
 */
export function pickSeats(
  maps: SeatMaps,
  pax: readonly Pax[],
  rules: SeatRequest,
  avoid: ReadonlySet<string> = new Set(),
): { picks: ExtraPick[]; unseated: string[] } {
  const holders = lapHolders(pax);
  const seated = pax.filter((p) => p.type !== 'INF');
  const order = seatOrder(rules.preference);
  const picks: ExtraPick[] = [];
  const unseated: string[] = [];
  for (const segment of maps.segments) {
    const free = segment.seats.filter(
      (s) => s.available && !avoid.has(`${segment.segment}/${s.seat}`) && withinCap(s, rules.maxPricePerSeat),
    );
    const chosen = seatSegment(seated, free, holders, order, rules.together !== false);
    for (const p of seated) {
      const seat = chosen.get(p.id);
      if (seat === undefined) unseated.push(`passenger ${p.index} on ${segment.flight}`);
      else picks.push(seatPick(segment, seat, p));
    }
  }
  return { picks, unseated };
}

function seatSegment(
  seated: readonly Pax[],
  free: readonly SeatView[],
  holders: ReadonlySet<string>,
  order: (a: SeatView, b: SeatView) => number,
  together: boolean,
): Map<string, SeatView> {
  if (together && seated.length > 1) {
    const runs = adjacentRuns(free, seated.length).sort(
      (a, b) => compare(total(a), total(b)) || a[0]!.row - b[0]!.row || a[0]!.column.localeCompare(b[0]!.column),
    );
    for (const run of runs) {
      const got = assign(seated, run, holders, order);
      if (got !== undefined) return got;
    }
  }
  const out = new Map<string, SeatView>();
  for (const p of [...seated].sort((a, b) => Number(holders.has(b.id)) - Number(holders.has(a.id)))) {
    const used = new Set([...out.values()].map((s) => s.seat));
    const best = free.filter((s) => !used.has(s.seat) && seatAllowed(s, p, holders)).sort(order)[0];
    if (best !== undefined) out.set(p.id, best);
  }
  return out;
}

/** The pick of `seat` for passenger `p` on `segment`. */
export function seatPick(segment: SegmentSeatMap, seat: SeatView, p: Pax): ExtraPick {
  return {
    itemId: seat.items[p.type]!,
    passengerId: p.id,
    passenger: p.index,
    code: seat.zone ?? 'XST',
    segmentKeys: [segment.segment],
    seat: seat.seat,
    ...(seat.price !== undefined && seat.currency !== undefined
      ? { price: { value: seat.price, currency: seat.currency } }
      : {}),
  };
}

/** The seats of `picks` that the pricing did not price (lost to another transaction: warning 281). */
export function lostSeats(picks: readonly ExtraPick[], priced: readonly ExtraPick[]): ExtraPick[] {
  return picks.filter(
    (p) =>
      p.seat !== undefined &&
      !priced.some(
        (x) => x.seat === p.seat && x.passengerId === p.passengerId && x.segmentKeys[0] === p.segmentKeys[0],
      ),
  );
}

/** The à-la-carte offer of `picks` as OfferPriceRQ selects it: one item per passenger and extra. */
export function aLaCarteOffer(
  offer: { offerId: string; owner: string; responseId: string },
  picks: readonly ExtraPick[],
): OfferToPrice {
  return {
    ...offer,
    offerItems: picks.map((p) => {
      const place = p.seat === undefined ? undefined : /^(\d+)([A-Z]+)$/.exec(p.seat);
      return {
        offerItemId: p.itemId,
        passengerRefs: [p.passengerId],
        aLaCarteSelection: { quantity: 1, ...(place ? { segmentId: p.segmentKeys[0]! } : {}) },
        ...(place ? { seatSelection: { row: Number(place[1]), column: place[2]! } } : {}),
      };
    }),
  };
}

/** The picks of a traveller's choice; throws (the update is refused with 422) when it cannot be had. */
export function resolveChoice(maps: SeatMaps, pax: readonly Pax[], seats: readonly SeatChoice[]): ExtraPick[] {
  if (!Array.isArray(seats) || seats.length === 0) throw new Error('seats: choose at least one seat');
  const holders = lapHolders(pax);
  const taken = new Set<string>();
  return seats.map((c, i) => {
    const p = pax[c.passenger];
    if (p === undefined || p.type === 'INF')
      throw new Error(`seats[${i}].passenger: no passenger ${c.passenger} taking a seat`);
    const segment =
      c.segment !== undefined
        ? maps.segments.find((s) => s.segment === c.segment)
        : maps.segments.length === 1
          ? maps.segments[0]
          : undefined;
    if (segment === undefined) {
      throw new Error(
        `seats[${i}].segment: ${c.segment === undefined ? 'required when the trip has several segments' : `unknown segment ${c.segment}`}`,
      );
    }
    const seat = segment.seats.find((s) => s.seat === c.seat);
    if (seat === undefined) throw new Error(`seats[${i}].seat: no seat ${c.seat} on ${segment.flight}`);
    if (!seat.available) throw new Error(`seats[${i}].seat: seat ${c.seat} on ${segment.flight} is taken`);
    if (!seatAllowed(seat, p, holders))
      throw new Error(`seats[${i}].seat: seat ${c.seat} is not for passenger ${c.passenger} (exit row with an infant)`);
    for (const key of [`${segment.segment}/${c.seat}`, `${segment.segment}/pax${c.passenger}`]) {
      if (taken.has(key)) throw new Error(`seats[${i}]: seat or passenger chosen twice on ${segment.flight}`);
      taken.add(key);
    }
    return seatPick(segment, seat, p);
  });
}

/** Picks of one à-la-carte offer. */
export interface Picked {
  offer: { offerId: string; owner: string; responseId: string };
  picks: ExtraPick[];
}

/** One à-la-carte offer per offer id (bags and seats of one airline share it). */
export function aLaCarteOffers(parts: (Picked | undefined)[]): OfferToPrice[] {
  const byId = new Map<string, Picked>();
  for (const part of parts) {
    if (part === undefined || part.picks.length === 0) continue;
    const known = byId.get(part.offer.offerId);
    byId.set(part.offer.offerId, known ? { offer: known.offer, picks: [...known.picks, ...part.picks] } : part);
  }
  return [...byId.values()].map((p) => aLaCarteOffer(p.offer, p.picks));
}
