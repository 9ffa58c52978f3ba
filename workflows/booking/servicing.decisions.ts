/**
 * The servicing decisions, pure (docs/orchestrator.md, "Servicing"): whether the booking takes a
 * servicing request now (the updates' validators), which travellers are still on the order, and
 * whether an order read back shows a change took effect. Each with its unit test beside it.
 */
import type { OrderSummary } from '../../activities/booking.activities.types';
import type { IntentPassenger } from '../../src/booking/booking.model';
import { passengerIds } from '../../src/booking/intent-to-ndc';
import type { BookingStatus } from '../../src/booking/booking.status';
import {
  ServicingRefusal,
  type ChangeOffer,
  type OrderFlight,
  type ServicingAction,
  type ServicingArgs,
} from '../../src/booking/servicing.model';
import { add, compare, currencyScale, percentOf } from '../../src/common/decimal';

/** What the validators look at. */
export interface ServicingView {
  status: BookingStatus;
  /** The order exists and its flights have not all departed. */
  serviceable: boolean;
  /** A servicing request is being served. */
  busy: boolean;
  passengers: readonly IntentPassenger[];
  order: Pick<OrderSummary, 'passengerIds'> | undefined;
  offers: readonly ChangeOffer[];
  /** Workflow time, ms. */
  nowMs: number;
}

export interface Refusal {
  type: ServicingRefusal;
  message: string;
}

/** Why `action` with `args` is refused now, or undefined when the booking takes it. */
export function servicingRefusal<A extends ServicingAction>(
  view: ServicingView,
  action: A,
  args: ServicingArgs[A],
): Refusal | undefined {
  if (!view.serviceable)
    return refuse(
      'NOT_SERVICEABLE',
      `the booking takes servicing requests only once its order exists (${view.status})`,
    );
  if (view.busy) return refuse('BOOKING_BUSY', 'another servicing action of this booking is running');
  const wanted = STATUSES_OF[action];
  if (!wanted.includes(view.status))
    return refuse('NOT_SERVICEABLE', `${action} needs status ${wanted.join(' or ')}, not ${view.status}`);
  return argumentsRefusal(view, action, args);
}

/** The statuses each action is taken in. */
const STATUSES_OF: Record<ServicingAction, readonly BookingStatus[]> = {
  changeOffers: ['CONFIRMED', 'ACTION_REQUIRED'],
  changeTrip: ['CONFIRMED'],
  orderServices: ['CONFIRMED'],
  orderSeatMap: ['CONFIRMED'],
  addServices: ['CONFIRMED'],
  cancelQuote: ['CONFIRMED', 'HELD', 'ACTION_REQUIRED'],
  removePassengers: ['CONFIRMED'],
  pay: ['HELD'],
  answerAirlineChange: ['ACTION_REQUIRED'],
};

function argumentsRefusal<A extends ServicingAction>(
  view: ServicingView,
  action: A,
  args: ServicingArgs[A],
): Refusal | undefined {
  switch (action) {
    case 'changeTrip':
      return changeRefusal(view, args as ServicingArgs['changeTrip']);
    case 'answerAirlineChange': {
      const answer = args as ServicingArgs['answerAirlineChange'];
      if (answer.action !== 'rebook') return undefined;
      if (answer.offerId === undefined) return invalid('offerId: a rebook names an offer of change-offers');
      return changeRefusal(view, {
        offerId: answer.offerId,
        ...(answer.card !== undefined ? { card: answer.card } : {}),
      });
    }
    case 'removePassengers':
      return passengersRefusal(view, (args as ServicingArgs['removePassengers']).passengers, false);
    case 'cancelQuote': {
      const { passengers } = args as ServicingArgs['cancelQuote'];
      return passengers === undefined ? undefined : passengersRefusal(view, passengers, true);
    }
    case 'addServices': {
      const { bags = [], seats = [] } = args as ServicingArgs['addServices'];
      if (bags.length + seats.length === 0) return invalid('bags, seats: add at least one bag or seat');
      const flying = flyingIndexes(view);
      const unknown = [
        ...bags.map((item, i) => ({ item, path: `bags[${i}]` })),
        ...seats.map((item, i) => ({ item, path: `seats[${i}]` })),
      ].find(({ item }) => !flying.includes(item.passenger));
      return unknown === undefined
        ? undefined
        : invalid(`${unknown.path}.passenger: passenger ${unknown.item.passenger} is not on the order`);
    }
    default:
      return undefined;
  }
}

function changeRefusal(view: ServicingView, args: ServicingArgs['changeTrip']): Refusal | undefined {
  const offer = view.offers.find((o) => o.id === args.offerId);
  if (offer === undefined)
    return refuse('OFFER_UNKNOWN', `offerId: no change offer ${args.offerId}; ask for change offers first`);
  if (Date.parse(offer.expiresAt) <= view.nowMs)
    return refuse('OFFER_EXPIRED', `offerId: the change offer ${offer.id} expired at ${offer.expiresAt}`);
  const difference = offer.difference.value;
  if (args.maxDifference !== undefined && compare(difference, args.maxDifference) > 0)
    return refuse(
      'DIFFERENCE_ABOVE_MAX',
      `maxDifference: the change costs ${difference} ${offer.difference.currency}, above ${args.maxDifference}`,
    );
  if (compare(difference, '0') > 0 && args.card === undefined)
    return refuse('CARD_REQUIRED', `payment.card: ${difference} ${offer.difference.currency} is due for this change`);
  return undefined;
}

/**
 * Travellers to remove (or quote for): known, on the order, each once; never every one left
 * (`wholeAllowed`: a quote may name them all, a removal must cancel instead), never an infant
 * without an adult, never no adult.
 */
function passengersRefusal(
  view: ServicingView,
  passengers: readonly number[],
  wholeAllowed: boolean,
): Refusal | undefined {
  if (passengers.length === 0) return invalid('passengers: name at least one traveller');
  const flying = flyingIndexes(view);
  if (new Set(passengers).size !== passengers.length) return invalid('passengers: a traveller is named twice');
  const gone = passengers.find((index) => !flying.includes(index));
  if (gone !== undefined) return invalid(`passengers: traveller ${gone} is not on the order`);
  const left = flying.filter((index) => !passengers.includes(index)).map((index) => view.passengers[index]!.type);
  if (left.length === 0)
    return wholeAllowed ? undefined : invalid('passengers: that is everyone; cancel the booking instead');
  const adults = left.filter((type) => type === 'ADT').length;
  if (adults === 0) return invalid('passengers: the order would be left without an adult');
  if (left.filter((type) => type === 'INF').length > adults)
    return invalid('passengers: an infant would be left without its adult');
  return undefined;
}

/** The intent's indexes of the travellers still on the order (every one before the order says). */
export function flyingIndexes(view: Pick<ServicingView, 'passengers' | 'order'>): number[] {
  const ids = passengerIds(view.passengers);
  const flying = view.order?.passengerIds;
  return ids.flatMap((id, index) => (flying === undefined || flying.includes(id) ? [index] : []));
}

function refuse(type: ServicingRefusal, message: string): Refusal {
  return { type, message };
}

function invalid(message: string): Refusal {
  return refuse(ServicingRefusal.INVALID_SERVICING_REQUEST, message);
}

// ------------------------------------------------------------------ did the change take effect?

/** The order holds every flight of the offer taken (a change of one direction keeps the other's). */
export function flightsChangedTo(read: OrderSummary, to: ChangeOffer): boolean {
  const held = new Set((read.flights ?? []).map((f) => `${f.flight}@${f.departure}`));
  return read.flights !== undefined && to.flights.every((f) => held.has(`${f.flight}@${f.departure}`));
}

/** None of `removed` (PassengerIDs) is on the order any more. */
export function passengersRemoved(read: OrderSummary, removed: readonly string[]): boolean {
  return read.passengerIds !== undefined && removed.every((id) => !read.passengerIds!.includes(id));
}

/** The order has more items than `before` (services were added). */
export function servicesAdded(read: OrderSummary, before: OrderSummary): boolean {
  return (read.itemCount ?? 0) > (before.itemCount ?? 0);
}

/** The held order is paid. */
export function orderPaid(read: OrderSummary): boolean {
  return read.payment === undefined || read.payment.status === 'paid';
}

// ------------------------------------------------------------------ the booking's clock

/** The latest UTC offset a local time can have (UTC−12): a local time is past everywhere 12 h after it reads as UTC. */
const LATEST_OFFSET_MS = 12 * 60 * 60 * 1000;

/**
 * Until when the booking takes servicing actions: the last flight's departure (local time, read as
 * the latest instant it can be anywhere); without flights, the end of the trip's last day.
 */
export function serviceableUntil(
  flights: readonly OrderFlight[] | undefined,
  journey: { departureDate: string; returnDate?: string },
): string {
  const departures = (flights ?? []).map((flight) => flight.departure).sort();
  const last = departures[departures.length - 1] ?? `${journey.returnDate ?? journey.departureDate}T23:59`;
  return new Date(Date.parse(`${last}:00Z`) + LATEST_OFFSET_MS).toISOString();
}

/** What the servicing loop waits for besides requests, at a time. */
export type TimedEvent = 'paymentDue' | 'holdDeadline' | 'actionDue' | 'actionDeadline' | 'orderRead' | 'departed';

/** What the next timed event depends on. */
export interface ServicingClock {
  /** `serviceableUntil`. */
  until: string;
  status: BookingStatus;
  /** A held order's payment. */
  payment?: { status: string; dueBy?: string };
  paymentNoticeMs: number;
  paymentAnnounced: boolean;
  holdChecks: number;
  /** An airline change's deadline (`ACTION_REQUIRED`). */
  actionBy?: string;
  actionNoticeMs: number;
  actionAnnounced: boolean;
  deadlineChecks: number;
  /** The next scheduled order read (epoch ms). */
  nextReadAt?: number;
}

/** Waits before reading a deadline again after `checks` reads that did not show it passed: 2 s doubling to 10 min. */
function recheckMs(checks: number): number {
  return checks === 0 ? 0 : Math.min(1000 * 2 ** checks, 10 * 60 * 1000);
}

/**
 * The next timed event of a serviceable booking: a held order's `booking.payment_due` notice (once)
 * and its deadline; an airline change's `booking.airline_change_due` notice (once) and deadline; a
 * deadline read again after reads that did not show it passed; the next scheduled order read; the
 * departure. The earliest wins.
 */
export function nextTimedEvent(clock: ServicingClock): { event: TimedEvent; at: number } {
  const events: { event: TimedEvent; at: number }[] = [{ event: 'departed', at: Date.parse(clock.until) }];
  const dueBy =
    clock.payment?.status === 'due' && clock.payment.dueBy !== undefined ? Date.parse(clock.payment.dueBy) : NaN;
  if (clock.status === 'HELD' && !Number.isNaN(dueBy)) {
    if (!clock.paymentAnnounced) events.push({ event: 'paymentDue', at: dueBy - clock.paymentNoticeMs });
    events.push({ event: 'holdDeadline', at: dueBy + recheckMs(clock.holdChecks) });
  }
  const actionBy = clock.actionBy !== undefined ? Date.parse(clock.actionBy) : NaN;
  if (clock.status === 'ACTION_REQUIRED' && !Number.isNaN(actionBy)) {
    if (!clock.actionAnnounced) events.push({ event: 'actionDue', at: actionBy - clock.actionNoticeMs });
    events.push({ event: 'actionDeadline', at: actionBy + recheckMs(clock.deadlineChecks) });
  }
  if (clock.nextReadAt !== undefined) events.push({ event: 'orderRead', at: clock.nextReadAt });
  return events.reduce((first, next) => (next.at < first.at ? next : first));
}

/** `amount` and the airline's card fee on it (its profile's percent), none for a debit card. */
export function withCardFee(
  amount: { value: string; currency: string },
  percent: string | undefined,
  funding: string | undefined,
): { value: string; currency: string } {
  if (percent === undefined || funding === 'debit') return amount;
  const scale = currencyScale(amount.currency);
  return { ...amount, value: add(scale, amount.value, percentOf(amount.value, percent, scale)) };
}
