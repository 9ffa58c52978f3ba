/**
 * How `npm run book` prints the order after the booking (scripts/book-servicing.ts): a booking, its
 * flights, its changes and their money, change offers. Money exactly as the API gave it, with its
 * currency; the API answers no card data, so none can be printed.
 */
import type { BookingView, ChangeOffersAnswer, SeatMapView } from '../src/api/common/api.schemas';
import { money, type Money } from './book-api';

type Flight = NonNullable<BookingView['flights']>[number];
type Change = NonNullable<BookingView['changes']>[number];
type Offer = ChangeOffersAnswer['offers'][number];

/** `ZZ101 LGW-OSL 2026-12-21T08:00` (then ` to <arrival>` when the airline gave it). */
export function flightLine(f: Flight): string {
  return `${f.flight} ${f.origin}-${f.destination} ${f.departure}${f.arrival !== undefined ? ` to ${f.arrival}` : ''}`;
}

const flights = (list: readonly Flight[] | undefined) => (list ?? []).map(flightLine).join(', ');

/** `, difference 16.98 GBP, penalty 0.00 GBP, total 145.98 GBP`: the amounts present, in that order. */
function amounts(parts: [string, Money | undefined][]): string {
  return parts.map(([name, m]) => (m !== undefined ? `, ${name} ${money(m)}` : '')).join('');
}

/** One change of the order (`state.changes[]`): when, what, and its money (difference positive: charged). */
export function changeLine(c: Change): string {
  const what = {
    trip: () => `trip ${flights(c.from)} → ${flights(c.to)}`,
    services: () => 'services added',
    passengers: () => `passengers ${(c.passengers ?? []).join(', ')} removed`,
    payment: () => 'paid',
    airline: () =>
      `airline change taken${c.by !== undefined ? ` by ${c.by}` : ''}${c.to !== undefined ? `, now ${flights(c.to)}` : ''}`,
  }[c.kind]();
  return `${c.at} ${what}${amounts([
    ['difference', c.difference],
    ['penalty', c.penalty],
    ['total', c.total],
  ])}`;
}

/** One change offer: its id, flights, price class, total, difference, penalty and expiry. */
export function offerLine(o: Offer): string {
  return (
    `${o.id}: ${flights(o.flights)}${o.priceClass !== undefined ? `, ${o.priceClass}` : ''}` +
    `${amounts([
      ['total', o.total],
      ['difference', o.difference],
      ['penalty', o.penalty],
    ])}, expires ${o.expiresAt}`
  );
}

/** `booking <id>: CONFIRMED at ZZ, booking reference ABC123, total 129.00 GBP incl. card surcharge 1.24 GBP (order O)`. */
function headLine(v: BookingView): string {
  const at = v.airline !== undefined ? ` at ${v.airline}` : '';
  const surcharge = v.surcharge !== undefined ? ` incl. card surcharge ${money(v.surcharge)}` : '';
  const order =
    v.order !== undefined
      ? `, booking reference ${v.order.bookingReference}, total ${money(v.order.total)}${surcharge} (order ${v.order.orderId})`
      : '';
  return `booking ${v.id}: ${v.status}${at}${order}${v.stale !== undefined ? ` [stale: ${v.stale}]` : ''}`;
}

/** `payment: due 129.00 GBP, due by ..., price guaranteed until ...` (or `paid ... at ...`). */
export function paymentLine(p: NonNullable<BookingView['payment']>): string {
  return (
    `payment: ${p.status} ${money(p.amount)}` +
    (p.dueBy !== undefined ? `, due by ${p.dueBy}` : '') +
    (p.priceGuaranteedUntil !== undefined ? `, price guaranteed until ${p.priceGuaranteedUntil}` : '') +
    (p.paidAt !== undefined ? `, paid at ${p.paidAt}` : '')
  );
}

/** The airline's last change: what, when, the trip before and after, and what may be or was done. */
function airlineChangeLines(id: string, a: NonNullable<BookingView['airlineChange']>): string[] {
  const shift = a.shiftMinutes !== undefined ? `, ${a.shiftMinutes} min` : '';
  const lines = [
    `  airline change: ${a.kind}${shift}, by ${a.detectedBy} at ${a.detectedAt}${a.reason !== undefined ? ` (${a.reason})` : ''}`,
    `    before: ${flights(a.before)}`,
    `    after:  ${flights(a.after)}`,
  ];
  if (a.action !== undefined) return [...lines, `    taken: ${a.action.taken} by ${a.action.by} at ${a.action.at}`];
  const by = a.actionBy !== undefined ? ` by ${a.actionBy}` : '';
  return [
    ...lines,
    `    answer${by}: ${a.actions.join(', ')} (npm run book -- airline-change ${id} ${a.actions.join('|')})`,
  ];
}

/** What `show <id>` prints: status, order, payment, flights, changes, airline change, servicing, cancellation, error. */
export function showLines(v: BookingView): string[] {
  const lines = [headLine(v)];
  if (v.payment !== undefined) lines.push(`  ${paymentLine(v.payment)}`);
  if (v.flights !== undefined && v.flights.length > 0)
    lines.push('  flights:', ...v.flights.map((f) => `    ${flightLine(f)} (segment ${f.segmentKey})`));
  if (v.changes !== undefined && v.changes.length > 0)
    lines.push('  changes:', ...v.changes.map((c) => `    ${changeLine(c)}`));
  if (v.airlineChange !== undefined) lines.push(...airlineChangeLines(v.id, v.airlineChange));
  if (v.servicing !== undefined) {
    const amount = v.servicing.amount !== undefined ? `, ${money(v.servicing.amount)}` : '';
    lines.push(`  servicing: ${v.servicing.action} since ${v.servicing.since}${amount}`);
  }
  if (v.serviceableUntil !== undefined) lines.push(`  serviceable until ${v.serviceableUntil}`);
  const x = v.cancellation;
  if (x !== undefined)
    lines.push(
      `  cancellation: ${x.status}${amounts([
        ['refund', x.refund],
        ['fee', x.fee],
      ])}`,
    );
  const error = v.error ?? x?.error;
  if (error !== undefined) lines.push(`  error: ${error.type}: ${error.message}`);
  return lines;
}

/** Per segment: its key, flight and free seats, then one line per price (`no price` for seats without one). */
export function seatMapLines(map: SeatMapView): string[] {
  return map.segments.flatMap((segment) => {
    const free = segment.seats.filter((seat) => seat.available);
    const byPrice = new Map<string, string[]>();
    for (const seat of free) {
      const price = seat.price !== undefined ? `${seat.price} ${seat.currency ?? ''}`.trimEnd() : 'no price';
      byPrice.set(price, [...(byPrice.get(price) ?? []), seat.seat]);
    }
    return [
      `${segment.segment} ${segment.flight}: ${free.length} of ${segment.seats.length} seats free`,
      ...[...byPrice].map(([price, seats]) => `  ${price}: ${seats.join(' ')}`),
    ];
  });
}
