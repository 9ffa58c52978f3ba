/**
 * What the Temporal UI shows of a booking (its workflow's user metadata): a static summary and
 * details set at start, and current details kept up to date by the workflow
 * (workflows/booking/details.ts). Pure, shared by the API, the batch workflow and the booking
 * workflow. Never a name, a card, a contact or a credential: route, dates, agency, counts,
 * statuses, the booking reference and totals only.
 */
import type { BookingIntent, BookingState } from './booking.model';

/** One line: `LGW→OSL 2027-03-10 · agency AGENCY1 · 2 passengers` (`⇄` and both dates for a return). */
export function bookingSummary(intent: BookingIntent): string {
  const { origin, destination, departureDate, returnDate } = intent.journey;
  const route =
    returnDate !== undefined
      ? `${origin}⇄${destination} ${departureDate}/${returnDate}`
      : `${origin}→${destination} ${departureDate}`;
  const count = intent.passengers.length;
  return `${route} · agency ${intent.agency.id} · ${count} passenger${count === 1 ? '' : 's'}`;
}

/** Markdown: the journey, the agency and the passenger mix. */
export function bookingStaticDetails(intent: BookingIntent): string {
  const types = new Map<string, number>();
  for (const p of intent.passengers) types.set(p.type, (types.get(p.type) ?? 0) + 1);
  const mix = [...types].map(([type, n]) => `${n} ${type}`).join(', ');
  const { journey } = intent;
  return [
    `**Journey**: ${journey.origin} → ${journey.destination} on ${journey.departureDate}` +
      (journey.returnDate !== undefined ? `, back on ${journey.returnDate}` : ', one way') +
      (journey.flexibleDays !== undefined ? ` (± ${journey.flexibleDays} days)` : ''),
    `**Agency**: ${intent.agency.id} (${intent.agency.name})`,
    `**Passengers**: ${intent.passengers.length} (${mix})`,
    `**Currency**: ${intent.currency}` +
      (intent.selection?.maxTotal !== undefined ? `, at most ${intent.selection.maxTotal}` : ''),
  ].join('\n');
}

/** What a booking waits for, and until when (ISO time). */
export interface BookingWait {
  what: string;
  until?: string;
}

/** What a booking in `state` waits for, given when its current wait ends (`until`). */
export function bookingWait(state: Readonly<BookingState>, until?: string): BookingWait | undefined {
  const at = until !== undefined ? { until } : {};
  switch (state.status) {
    case 'AWAITING_APPROVAL':
      return { what: 'the agency to approve the new price (approvePrice) or cancel', ...at };
    case 'SETTLING':
      return {
        what: 'the airline: looking up an order of unknown outcome',
        until: state.settling?.until ?? until ?? '',
      };
    case 'CONFIRMED':
      if (until !== undefined) return { what: 'a possible cancel (cancel window)', until };
      return state.serviceableUntil !== undefined
        ? { what: 'servicing requests (changes, bags and seats, refund quotes, cancel)', until: state.serviceableUntil }
        : undefined;
    case 'HELD':
      return {
        what: 'the payment (POST /bookings/{id}/payment)',
        ...(state.payment?.dueBy !== undefined ? { until: state.payment.dueBy } : at),
      };
    case 'CHANGING':
      return {
        what: `the airline: ${state.servicing !== undefined ? SERVICING_LABELS[state.servicing.action] : 'the change'}`,
      };
    case 'CANCELLING':
      return { what: "the airline's answer to the cancel" };
    case 'RUNNING':
      return state.currentStep !== undefined ? { what: `the airline (step ${state.currentStep})` } : undefined;
    default:
      return undefined;
  }
}

/**
 * Markdown: status (with the servicing action running, or a held booking's payment), booking
 * reference, total, flights, the last change of the order and its money, what it waits for and
 * until when, the error.
 */
export function bookingCurrentDetails(state: Readonly<BookingState>, wait?: BookingWait): string {
  const about = statusDetail(state);
  const lines = [`**Status**: ${state.status}${about !== undefined ? `: ${about}` : ''}`];
  if (state.order !== undefined) lines.push(`**PNR**: ${state.order.bookingReference} (order ${state.order.orderId})`);
  const total = state.order?.total ?? state.pricedTotal;
  if (total !== undefined) lines.push(`**Total**: ${total.value} ${total.currency}`);
  if (state.flights !== undefined && state.flights.length > 0)
    lines.push(
      `**Flights**: ${state.flights.map((f) => `${f.flight} ${f.origin}→${f.destination} ${f.departure}`).join(', ')}`,
    );
  const last = state.changes?.[state.changes.length - 1];
  if (last !== undefined) lines.push(`**Last change**: ${changeLine(last)}`);
  if (wait !== undefined)
    lines.push(
      `**Waiting for**: ${wait.what}${wait.until !== undefined && wait.until !== '' ? ` until ${wait.until}` : ''}`,
    );
  if (state.error !== undefined) lines.push(`**Error**: ${state.error.type}: ${state.error.message}`);
  if (state.cancellation !== undefined) lines.push(`**Cancellation**: ${state.cancellation.status}`);
  return lines.join('\n');
}

type ServicingAction = NonNullable<BookingState['servicing']>['action'];
type OrderChange = NonNullable<BookingState['changes']>[number];
type Money = { value: string; currency: string };

/** What each servicing action is, in a few words. */
const SERVICING_LABELS: Readonly<Record<ServicingAction, string>> = {
  changeOffers: 'change offers',
  changeTrip: 'trip change',
  orderServices: 'services on sale',
  orderSeatMap: 'seat map',
  addServices: 'bags and seats',
  cancelQuote: 'refund quote',
  removePassengers: 'travellers removed',
  pay: 'payment',
  answerAirlineChange: "answer to the airline's change",
};

/** What each kind of change of the order is, in a few words. */
const CHANGE_LABELS: Readonly<Record<OrderChange['kind'], string>> = {
  trip: 'trip change',
  services: 'bags and seats',
  passengers: 'travellers removed',
  payment: 'payment',
  airline: 'airline change',
};

/** After the status: the servicing action running, or a held (expired) booking's payment. */
function statusDetail(state: Readonly<BookingState>): string | undefined {
  const payment = state.payment;
  const due =
    payment !== undefined && payment.status !== 'paid'
      ? `${money(payment.amount)} ${payment.status === 'expired' ? 'was due' : 'due'}${payment.dueBy !== undefined ? ` by ${payment.dueBy}` : ''}`
      : undefined;
  if (state.servicing !== undefined) {
    const { action, amount } = state.servicing;
    const label = SERVICING_LABELS[action];
    if (action === 'pay' && due !== undefined) return `${label} of ${due}`;
    return amount !== undefined ? `${label} ${signed(amount)}` : label;
  }
  return state.status === 'HELD' || state.status === 'EXPIRED' ? due : undefined;
}

/** `trip change +16.98 GBP (penalty 0.00 GBP) at <time>`. */
function changeLine(change: Readonly<OrderChange>): string {
  const parts = [CHANGE_LABELS[change.kind]];
  if (change.difference !== undefined) parts.push(signed(change.difference));
  if (change.penalty !== undefined) parts.push(`(penalty ${money(change.penalty)})`);
  return `${parts.join(' ')} at ${change.at}`;
}

function money(amount: Money): string {
  return `${amount.value} ${amount.currency}`;
}

/** An amount with its sign: `+16.98 GBP` charged, `-64.50 GBP` refunded. */
function signed(amount: Money): string {
  return amount.value.startsWith('-') ? money(amount) : `+${money(amount)}`;
}
