/**
 * Step `price`: the chosen offers priced (OfferPriceRQ). Without `intent.extras` that is all.
 * With extras (docs/orchestrator.md "Extras"), steps `serviceList` and `seatMap` first ask the
 * airline what is on sale, the decision functions pick (or the booking waits for the traveller's
 * seats, `AWAITING_SEAT_SELECTION`), and the offer is priced with them; a seat lost to another
 * transaction (warning 281) is picked again from a fresh seat map, a bounded number of times.
 */
import { ApplicationFailure, condition } from '@temporalio/workflow';
import type { ChosenOffer, PriceResult, SeatMapResult } from '../../activities/booking.activities.types';
import type { ExtraPick, ExtrasState, SeatMaps } from '../../src/booking/booking.extras';
import { FailureType } from '../../src/booking/booking.failures';
import { add, currencyScale } from '../../src/common/decimal';
import { aLaCarteOffers, lostSeats, paxOf, pickBags, pickSeats, type Pax, type Picked } from './extras.decisions';
import { chosenAirline } from './airlines';
import type { Booking, SeatChoiceRequest } from './context';

/** Fresh seat maps and pricings after seats were lost to another transaction (281). */
export const MAX_SEAT_REPICKS = 2;

/** The offers priced (flights, plus the à-la-carte offer when extras were priced) and their pricing. */
export interface PricedWithExtras {
  priced: PriceResult;
  offers: ChosenOffer[];
}

/** Prices `chosen`, with the intent's extras when it asks for any. */
export async function priceWithExtras(booking: Booking, chosen: ChosenOffer[]): Promise<PricedWithExtras> {
  const { ctx, intent, trail } = booking;
  const extras = intent.extras;
  if (extras === undefined || (!extras.bags?.length && extras.seats === undefined)) {
    return {
      priced: await trail.step('price', () => chosenAirline(booking).ndc.price({ ctx, offers: chosen })),
      offers: chosen,
    };
  }
  const state: ExtrasState = (trail.state.extras = { priced: [], notes: [], seatMapReads: 0 });
  const pax = paxOf(intent.passengers);
  const bags = extras.bags?.length ? await bagPicks(booking, chosen, pax, state) : undefined;
  const avoid = new Set<string>();
  for (let round = 0; ; round++) {
    const seats = extras.seats !== undefined ? await seatPicks(booking, chosen, pax, avoid, state) : undefined;
    const offers = [...chosen, ...aLaCarteOffers([bags, seats])];
    const reason = round > 0 ? `seat re-pick ${round}/${MAX_SEAT_REPICKS} after 281` : undefined;
    const priced = await trail.step('price', () => chosenAirline(booking).ndc.price({ ctx, offers }), {
      ...(reason !== undefined ? { reason } : {}),
    });
    const lost = lostSeats(seats?.picks ?? [], priced.extras ?? []);
    for (const p of lost) state.notes.push(`seat ${p.seat} for passenger ${p.passenger} lost to another booking (281)`);
    if (lost.length === 0 || round >= MAX_SEAT_REPICKS || extras.seats?.mode === 'choose') {
      if (lost.length > 0) noSeats(booking, `seats ${lost.map((p) => p.seat).join(', ')} could not be had`);
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

async function bagPicks(
  booking: Booking,
  chosen: ChosenOffer[],
  pax: Pax[],
  state: ExtrasState,
): Promise<Picked | undefined> {
  const { ctx, intent, trail } = booking;
  const list = await trail.step('serviceList', () => chosenAirline(booking).ndc.listServices({ ctx, offers: chosen }));
  const { picks, missing } = pickBags(intent.extras!.bags!, pax, list.options, chosen.length);
  for (const m of missing) state.notes.push(`not on sale: ${m}`);
  if (list.aLaCarteOfferId === undefined || list.owner === undefined) return undefined;
  return { offer: { offerId: list.aLaCarteOfferId, owner: list.owner, responseId: chosen[0]!.responseId }, picks };
}

async function seatPicks(
  booking: Booking,
  chosen: ChosenOffer[],
  pax: Pax[],
  avoid: ReadonlySet<string>,
  state: ExtrasState,
): Promise<Picked | undefined> {
  const { ctx, intent, trail } = booking;
  const rules = intent.extras!.seats!;
  const read: SeatMapResult = await trail.step('seatMap', () =>
    chosenAirline(booking).ndc.readSeatMaps({ ctx, offers: chosen }),
  );
  state.seatMapReads += 1;
  const maps = read.maps;
  if (maps === undefined) {
    noSeats(booking, 'the airline has no seat map for these flights');
    return undefined;
  }
  const offer = { offerId: maps.aLaCarteOfferId, owner: maps.owner, responseId: maps.responseId };
  if (rules.mode === 'choose') return { offer, picks: await awaitSeatChoice(booking, maps, pax) };
  const { picks, unseated } = pickSeats(maps, pax, rules, avoid);
  if (unseated.length > 0) noSeats(booking, `no seat fits the rules for ${unseated.join(', ')}`);
  return { offer, picks };
}

/** Notes that seats are missing; fails the booking (SEATS_UNAVAILABLE) when the intent requires them. */
function noSeats({ intent, trail }: Booking, why: string): void {
  if (intent.extras?.seats?.required === true) {
    throw ApplicationFailure.nonRetryable(`seats required: ${why}`, FailureType.SEATS_UNAVAILABLE);
  }
  trail.state.extras?.notes.push(`going on without seats: ${why}`);
}

/**
 * `AWAITING_SEAT_SELECTION`: the seat map is readable (`seatMap` query, `GET /bookings/{id}/seat-map`)
 * and the traveller's seats come by the `selectSeats` update (`handlers.ts`), whose validator
 * refuses a seat that is taken or unknown, an unknown passenger or segment (the booking keeps
 * waiting). No choice within the seat-selection timeout goes on without seats.
 */
async function awaitSeatChoice(booking: Booking, maps: SeatMaps, pax: Pax[]): Promise<ExtraPick[]> {
  const { trail, settings, inbox } = booking;
  const request: SeatChoiceRequest = { maps, pax };
  inbox.seats = request;
  trail.setStatus('AWAITING_SEAT_SELECTION');
  const timeoutMs = settings.seatSelectionTimeoutMs;
  const chosen = await condition(() => request.choice !== undefined, timeoutMs);
  delete inbox.seats;
  trail.setStatus('RUNNING');
  if (!chosen) {
    noSeats(booking, `no seats chosen within ${timeoutMs} ms`);
    return [];
  }
  return request.choice!;
}
