/**
 * The extras phase of the saga (docs/orchestrator.md "Extras"): after the offer is chosen, asks
 * the airline what is on sale (ServiceList, seat maps), picks by the decision functions or waits
 * for the traveller's seats (`AWAITING_SEAT_SELECTION`), and prices the offer with them; a seat
 * lost to another transaction (warning 281) is picked again from a fresh seat map, a bounded
 * number of times. Without `intent.extras` it is exactly the plain `price` step.
 */
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import type { ChosenOffer, PriceResult, SeatMapResult } from '../activities/booking.activities.types';
import type { ExtraPick, ExtrasState, SeatChoice, SeatMaps } from '../src/booking/booking.extras';
import { FailureType } from '../src/booking/booking.failures';
import { add, currencyScale } from '../src/common/decimal';
import { seatMapQuery, selectSeatsUpdate } from './definitions';
import {
  aLaCarteOffer,
  lapHolders,
  lostSeats,
  paxOf,
  pickBags,
  pickSeats,
  seatAllowed,
  seatPick,
  type Pax,
} from './booking.extras.decisions';
import { chosenAirline } from './booking.airlines';
import type { Saga } from './booking.saga';

/** Fresh seat maps and pricings after seats were lost to another transaction (281). */
export const MAX_SEAT_REPICKS = 2;

/** The offers priced (flights, plus the à-la-carte offer when extras were priced) and their pricing. */
export interface PricedWithExtras {
  priced: PriceResult;
  offers: ChosenOffer[];
}

/** Prices `chosen`, with the intent's extras when it asks for any. */
export async function priceWithExtras(saga: Saga, chosen: ChosenOffer[]): Promise<PricedWithExtras> {
  const { ctx, intent, trail } = saga;
  const extras = intent.extras;
  if (extras === undefined || (!extras.bags?.length && extras.seats === undefined)) {
    return {
      priced: await trail.step('price', () => chosenAirline(saga).ndc.price({ ctx, offers: chosen })),
      offers: chosen,
    };
  }
  const state: ExtrasState = (trail.state.extras = { priced: [], notes: [], seatMapReads: 0 });
  const pax = paxOf(intent.passengers);
  const bags = extras.bags?.length ? await bagPicks(saga, chosen, pax, state) : undefined;
  const avoid = new Set<string>();
  for (let round = 0; ; round++) {
    const seats = extras.seats !== undefined ? await seatPicks(saga, chosen, pax, avoid, state) : undefined;
    const offers = [...chosen, ...aLaCarteOffers([bags, seats])];
    const reason = round > 0 ? `seat re-pick ${round}/${MAX_SEAT_REPICKS} after 281` : undefined;
    const priced = await trail.step('price', () => chosenAirline(saga).ndc.price({ ctx, offers }), {
      ...(reason !== undefined ? { reason } : {}),
    });
    const lost = lostSeats(seats?.picks ?? [], priced.extras ?? []);
    for (const p of lost) state.notes.push(`seat ${p.seat} for passenger ${p.passenger} lost to another booking (281)`);
    if (lost.length === 0 || round >= MAX_SEAT_REPICKS || extras.seats?.mode === 'choose') {
      if (lost.length > 0) noSeats(saga, `seats ${lost.map((p) => p.seat).join(', ')} could not be had`);
      showExtras(state, priced);
      return { priced, offers };
    }
    for (const p of lost) avoid.add(`${p.segmentKeys[0]}/${p.seat}`);
  }
}

/** Shows the extras of a (re)pricing in the state. */
export function showExtras(state: ExtrasState | undefined, priced: PriceResult): void {
  if (state === undefined) return;
  state.priced = priced.extras ?? [];
  const currency = priced.total.currency;
  state.total = {
    value: add(currencyScale(currency), '0', ...state.priced.map((p) => p.price?.value ?? '0')),
    currency,
  };
}

interface Picked {
  offer: { offerId: string; owner: string; responseId: string };
  picks: ExtraPick[];
}

/** One à-la-carte offer per offer id (bags and seats of one airline share it). */
function aLaCarteOffers(parts: (Picked | undefined)[]): ChosenOffer[] {
  const byId = new Map<string, Picked>();
  for (const part of parts) {
    if (part === undefined || part.picks.length === 0) continue;
    const known = byId.get(part.offer.offerId);
    byId.set(part.offer.offerId, known ? { offer: known.offer, picks: [...known.picks, ...part.picks] } : part);
  }
  return [...byId.values()].map((p) => aLaCarteOffer(p.offer, p.picks));
}

async function bagPicks(
  saga: Saga,
  chosen: ChosenOffer[],
  pax: Pax[],
  state: ExtrasState,
): Promise<Picked | undefined> {
  const { ctx, intent, trail } = saga;
  const list = await trail.step('serviceList', () => chosenAirline(saga).ndc.listServices({ ctx, offers: chosen }));
  const { picks, missing } = pickBags(intent.extras!.bags!, pax, list.options, chosen.length);
  for (const m of missing) state.notes.push(`not on sale: ${m}`);
  if (list.aLaCarteOfferId === undefined || list.owner === undefined) return undefined;
  return { offer: { offerId: list.aLaCarteOfferId, owner: list.owner, responseId: chosen[0]!.responseId }, picks };
}

async function seatPicks(
  saga: Saga,
  chosen: ChosenOffer[],
  pax: Pax[],
  avoid: ReadonlySet<string>,
  state: ExtrasState,
): Promise<Picked | undefined> {
  const { ctx, intent, trail } = saga;
  const rules = intent.extras!.seats!;
  const read: SeatMapResult = await trail.step('seatMap', () =>
    chosenAirline(saga).ndc.readSeatMaps({ ctx, offers: chosen }),
  );
  state.seatMapReads += 1;
  const maps = read.maps;
  if (maps === undefined) {
    noSeats(saga, 'the airline has no seat map for these flights');
    return undefined;
  }
  const offer = { offerId: maps.aLaCarteOfferId, owner: maps.owner, responseId: maps.responseId };
  if (rules.mode === 'choose') return { offer, picks: await awaitSeatChoice(saga, maps, pax) };
  const { picks, unseated } = pickSeats(maps, pax, rules, avoid);
  if (unseated.length > 0) noSeats(saga, `no seat fits the rules for ${unseated.join(', ')}`);
  return { offer, picks };
}

/** Notes that seats are missing; fails the booking (SEATS_UNAVAILABLE) when the intent requires them. */
function noSeats({ intent, trail }: Saga, why: string): void {
  if (intent.extras?.seats?.required === true) {
    throw ApplicationFailure.nonRetryable(`seats required: ${why}`, FailureType.SEATS_UNAVAILABLE);
  }
  trail.state.extras?.notes.push(`going on without seats: ${why}`);
}

/**
 * `AWAITING_SEAT_SELECTION`: the seat map is readable (`seatMap` query, `GET /bookings/{id}/seat-map`)
 * and the traveller's seats come by the `selectSeats` update, whose validator refuses a seat that
 * is taken or unknown, an unknown passenger or segment (the booking keeps waiting). No choice
 * within the seat-selection timeout goes on without seats.
 */
async function awaitSeatChoice(saga: Saga, maps: SeatMaps, pax: Pax[]): Promise<ExtraPick[]> {
  const { trail, settings } = saga;
  let choice: ExtraPick[] | undefined;
  setHandler(seatMapQuery, () => maps);
  setHandler(
    selectSeatsUpdate,
    (seats) => {
      choice = resolveChoice(maps, pax, seats);
    },
    { validator: (seats) => void resolveChoice(maps, pax, seats) },
  );
  trail.setStatus('AWAITING_SEAT_SELECTION');
  const timeoutMs = settings.seatSelectionTimeoutMs;
  const chosen = await condition(() => choice !== undefined, timeoutMs);
  trail.setStatus('RUNNING');
  if (!chosen) {
    noSeats(saga, `no seats chosen within ${timeoutMs} ms`);
    return [];
  }
  return choice!;
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
