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
      return until !== undefined ? { what: 'a possible cancel (cancel window)', until } : undefined;
    case 'CANCELLING':
      return { what: "the airline's answer to the cancel" };
    case 'RUNNING':
      return state.currentStep !== undefined ? { what: `the airline (step ${state.currentStep})` } : undefined;
    default:
      return undefined;
  }
}

/** Markdown: status, booking reference, total, what it waits for and until when, the error. */
export function bookingCurrentDetails(state: Readonly<BookingState>, wait?: BookingWait): string {
  const lines = [`**Status**: ${state.status}`];
  if (state.order !== undefined) lines.push(`**PNR**: ${state.order.bookingReference} (order ${state.order.orderId})`);
  const total = state.order?.total ?? state.pricedTotal;
  if (total !== undefined) lines.push(`**Total**: ${total.value} ${total.currency}`);
  if (wait !== undefined)
    lines.push(
      `**Waiting for**: ${wait.what}${wait.until !== undefined && wait.until !== '' ? ` until ${wait.until}` : ''}`,
    );
  if (state.error !== undefined) lines.push(`**Error**: ${state.error.type}: ${state.error.message}`);
  if (state.cancellation !== undefined) lines.push(`**Cancellation**: ${state.cancellation.status}`);
  return lines.join('\n');
}
