/**
 * The servicing commands of `npm run book` (scripts/book.ts): the order after the booking, over
 * the API's routes (docs/api.md, "After the booking"), one function per command. Each prints what
 * the API answered, money exactly as the API gave it, and returns whether it succeeded; an error
 * prints the API's code, message and bad fields. Card data is sent (the test card, when something
 * is due), never printed.
 */
import type {
  BookingView,
  ChangeOffersAnswer,
  OrderServicesAnswer,
  RefundQuoteAnswer,
  SeatMapView,
  ServicingAnswer,
  SignalSent,
} from '../src/api/common/api.schemas';
import { compare, isDecimal } from '../src/common/decimal';
import {
  bookingPath,
  describeError,
  http,
  money,
  resolveDate,
  sleep,
  Usage,
  waitingLine,
  type ApiAnswer,
  type Session,
} from './book-api';
import { changeLine, offerLine, paymentLine, seatMapLines, showLines } from './book-lines';

/** A session of the servicing commands: the booking session, the test card and fresh keys. */
export interface ServicingSession extends Session {
  /** The card that pays what is due (`examples/one-way.json`'s test card). Sensitive: sent, never printed. */
  card: unknown;
  /** A fresh Idempotency-Key (`cli-<uuid>`), when `--key` gave none. */
  newKey: () => string;
}

/** A servicing command as given on the command line, read and checked. */
export interface ServicingCommand {
  name: CommandName;
  /** The booking's id (the command's first argument). */
  id: string;
  /** The arguments after the id (dates, a seat, an airline-change action). */
  args: string[];
  /** `--offer`: a change offer's id. */
  offer?: string;
  /** `--max-difference`: decimal string; a change costing more is refused. */
  maxDifference?: string;
  /** `--price-class`: the change offers' price class (default: every class). */
  priceClass?: string;
  /** `--passenger`: index in the intent (default 0, the first). */
  passenger?: number;
  /** `--passengers`: indexes in the intent (default: everyone). */
  passengers?: number[];
  /** `--code`: the bag's code (default YN1). */
  code?: string;
  /** `--direction`: the bag's direction (default outbound). */
  direction?: 'outbound' | 'return';
  /** `--segment`: the seat's segment key (default: the airline's choice, the first segment). */
  segment?: string;
  /** `--reason`: why a cancel. */
  reason?: string;
  /** `--key`: the Idempotency-Key of an action (default: a fresh one). */
  key?: string;
}

/** The options of the servicing commands (each command takes some of them, and `--approve`). */
export const SERVICING_OPTIONS = [
  'offer',
  'max-difference',
  'price-class',
  'passenger',
  'passengers',
  'code',
  'direction',
  'segment',
  'reason',
  'key',
] as const;
type ServicingOption = (typeof SERVICING_OPTIONS)[number];

interface CommandSpec {
  /** Arguments and options, as the usage shows them. */
  synopsis: string;
  summary: string;
  /** How many arguments, the id included: at least, at most. */
  arity: [number, number];
  options: readonly ServicingOption[];
  run: (s: ServicingSession, c: ServicingCommand) => Promise<boolean>;
}

/** The servicing commands (`npm run book -- <command> <id> ...`), in the usage's order. */
const COMMANDS = {
  show: {
    synopsis: '<id>',
    summary: "the booking's status, payment, flights, changes and airline change",
    arity: [1, 1],
    options: [],
    run: show,
  },
  pay: {
    synopsis: '<id> [--key K]',
    summary: 'pay a HELD booking with the test card',
    arity: [1, 1],
    options: ['key'],
    run: pay,
  },
  'change-offers': {
    synopsis: '<id> <date> [<returnDate>] [--price-class C]',
    summary: 'the change offers for other dates (id, flights, total, difference, penalty, expiresAt)',
    arity: [2, 3],
    options: ['price-class'],
    run: changeOffers,
  },
  change: {
    synopsis: '<id> <date> [<returnDate>] | <id> --offer O [--max-difference D] [--price-class C] [--key K]',
    summary: 'take the cheapest offer for that date (or offer O), paying with the test card when due',
    arity: [1, 3],
    options: ['offer', 'max-difference', 'price-class', 'key'],
    run: change,
  },
  services: {
    synopsis: '<id>',
    summary: 'the services on sale for the order',
    arity: [1, 1],
    options: [],
    run: services,
  },
  'add-bag': {
    synopsis: '<id> [--passenger N] [--code C] [--direction outbound|return] [--key K]',
    summary: 'add a bag (default: passenger 0, YN1, outbound), paying when due',
    arity: [1, 1],
    options: ['passenger', 'code', 'direction', 'key'],
    run: addBag,
  },
  'seat-map': {
    synopsis: '<id>',
    summary: "the order's free seats per segment, by price (segment keys for add-seat --segment)",
    arity: [1, 1],
    options: [],
    run: seatMap,
  },
  'add-seat': {
    synopsis: '<id> <seat> [--passenger N] [--segment K] [--key K]',
    summary: 'add a seat (default: passenger 0), paying when due',
    arity: [2, 2],
    options: ['passenger', 'segment', 'key'],
    run: addSeat,
  },
  'cancel-quote': {
    synopsis: '<id> [--passengers 1,2]',
    summary: 'what cancelling (everyone, or those travellers) would refund now',
    arity: [1, 1],
    options: ['passengers'],
    run: cancelQuote,
  },
  cancel: {
    synopsis: '<id> [--passengers 1] [--reason R] [--key K]',
    summary: 'cancel the booking, or remove those travellers',
    arity: [1, 1],
    options: ['passengers', 'reason', 'key'],
    run: cancel,
  },
  'airline-change': {
    synopsis: '<id> accept|cancel|rebook [--offer O] [--key K]',
    summary: "answer the airline's change (rebook: on change offer O)",
    arity: [2, 2],
    options: ['offer', 'key'],
    run: airlineChange,
  },
} satisfies Record<string, CommandSpec>;

/** A servicing command's name. */
export type CommandName = keyof typeof COMMANDS;

/** True when `word` names a servicing command. */
export function isServicingCommand(word: string | undefined): word is CommandName {
  return word !== undefined && Object.hasOwn(COMMANDS, word);
}

/** The usage lines of the servicing commands. */
export function servicingUsage(): string {
  return Object.entries(COMMANDS)
    .map(([name, spec]) => `  ${name} ${spec.synopsis}\n      ${spec.summary}`)
    .join('\n');
}

/** Runs a servicing command; true when it succeeded. */
export function runServicing(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  return (COMMANDS[c.name] as CommandSpec).run(s, c);
}

const takesDates = (name: CommandName) => name === 'change-offers' || name === 'change';

const INDEX = /^\d{1,2}$/;

function index(option: string, value: string): number {
  if (!INDEX.test(value)) throw new Usage(`${option} must be a passenger index (0 is the first)`);
  return Number(value);
}

/**
 * Reads a servicing command: its arguments (`positionals`, the name first) and the options parseArgs
 * read (`values`). Refuses (Usage) a wrong number of arguments, an option the command does not take,
 * and a bad value (an index, a direction, a decimal, an airline-change action).
 */
export function readServicingCommand(
  positionals: readonly string[],
  values: Partial<Record<ServicingOption, string>> & Record<string, unknown>,
  today: Date,
): ServicingCommand {
  const name = positionals[0] as CommandName;
  const spec: CommandSpec = COMMANDS[name];
  const args = positionals.slice(1);
  if (args.length < spec.arity[0] || args.length > spec.arity[1]) throw new Usage(`${name} takes ${spec.synopsis}`);
  for (const [option, value] of Object.entries(values)) {
    if (value === undefined || option === 'approve') continue;
    if (!(spec.options as readonly string[]).includes(option))
      throw new Usage(`--${option} is not an option of ${name}`);
  }
  const { direction, passengers } = values;
  if (direction !== undefined && direction !== 'outbound' && direction !== 'return')
    throw new Usage('--direction must be outbound or return');
  if (values['max-difference'] !== undefined && !isDecimal(values['max-difference']))
    throw new Usage('--max-difference must be a decimal such as 25.00');
  const command: ServicingCommand = {
    name,
    id: args[0]!,
    // Dates of change-offers and change may be relative (+30d).
    args: args.slice(1).map((a) => (takesDates(name) ? resolveDate(a, today) : a)),
    ...(values.offer !== undefined ? { offer: values.offer } : {}),
    ...(values['max-difference'] !== undefined ? { maxDifference: values['max-difference'] } : {}),
    ...(values['price-class'] !== undefined ? { priceClass: values['price-class'] } : {}),
    ...(values.passenger !== undefined ? { passenger: index('--passenger', values.passenger) } : {}),
    ...(passengers !== undefined ? { passengers: passengers.split(',').map((p) => index('--passengers', p)) } : {}),
    ...(values.code !== undefined ? { code: values.code } : {}),
    ...(direction !== undefined ? { direction } : {}),
    ...(values.segment !== undefined ? { segment: values.segment } : {}),
    ...(values.reason !== undefined ? { reason: values.reason } : {}),
    ...(values.key !== undefined ? { key: values.key } : {}),
  };
  checkCommand(command);
  return command;
}

/** The rules across a command's arguments and options. */
function checkCommand(c: ServicingCommand): void {
  if (c.name === 'change' && (c.offer === undefined) === (c.args.length === 0))
    throw new Usage('change takes a <date> (the cheapest offer on it) or --offer O, one of them');
  if (c.name === 'change' && c.offer !== undefined && c.priceClass !== undefined)
    throw new Usage('--price-class chooses among the offers of a <date>, not with --offer');
  if (c.name !== 'airline-change') return;
  const action = c.args[0];
  if (action !== 'accept' && action !== 'cancel' && action !== 'rebook')
    throw new Usage('airline-change takes accept, cancel or rebook');
  if ((action === 'rebook') !== (c.offer !== undefined))
    throw new Usage('airline-change rebook needs --offer O (a change offer), accept and cancel take none');
}

// ------------------------------------------------------------------ talking to the API

/** A read failed: the API's status and problem. Always false. */
function refused(s: Session, label: string, r: ApiAnswer): false {
  s.out(`✗ ${label}: ${r.status} ${describeError(r.json)}`);
  return false;
}

/**
 * Sends an action and waits for its outcome: 200 is done. While it runs (202: 3-D Secure, a price
 * approval, the airline still at it) it prints what the booking waits for, approves the price with
 * `--approve`, and sends the same request again with the same Idempotency-Key (the same action,
 * never done twice) until it is done, refused or failed. `undefined`: no outcome by the deadline
 * (`timeoutMs`, or the end of the 3-D Secure window when later).
 */
async function act(s: Session, label: string, path: string, body: unknown, key: string) {
  let deadline = Date.now() + s.timeoutMs;
  let shown = '';
  let approved = false;
  for (;;) {
    const r = await http(s, 'POST', path, body, { 'Idempotency-Key': key });
    if (r.status !== 202) return r;
    const v = r.json as unknown as BookingView;
    const line = waitingLine(label, v, s) ?? `  ${label}: ${v.status}`;
    if (line !== shown) s.out(line);
    shown = line;
    if (v.status === 'AWAITING_APPROVAL' && s.approve && !approved) {
      approved = true;
      await http(s, 'POST', bookingPath(v.id, '/approve-price'));
    }
    if (v.authentication !== undefined) deadline = Math.max(deadline, Date.parse(v.authentication.expiresAt) + 60_000);
    if (Date.now() >= deadline) return undefined;
    await sleep(s.pollMs);
  }
}

/**
 * {@link act} without a card; refused with `CARD_REQUIRED` (something is due: nothing was done),
 * sent again with the test card as `payment.card`, under a key of its own.
 */
async function actPaying(s: ServicingSession, c: ServicingCommand, route: string, body: Record<string, unknown>) {
  const key = c.key ?? s.newKey();
  const path = bookingPath(c.id, route);
  const first = await act(s, c.id, path, body, key);
  if (first?.status !== 422 || first.json?.code !== 'CARD_REQUIRED') return first;
  s.out(`  ${c.id}: ${String(first.json.detail)}, paying with the test card`);
  return act(s, c.id, path, { ...body, payment: { card: s.card } }, `${key}-card`);
}

/**
 * Prints the outcome of an action: the booking as it left it (its status, total, the change it made
 * and its money, a removal's refund), or why not. Answers the booking when the action was done.
 */
function reportDone(s: Session, id: string, r: ApiAnswer | undefined): ServicingAnswer | undefined {
  if (r === undefined) {
    s.out(`✗ ${id}: no outcome before the deadline (see: npm run book -- show ${id})`);
    return undefined;
  }
  if (r.status !== 200) {
    refused(s, id, r);
    return undefined;
  }
  const v = r.json as unknown as ServicingAnswer;
  const reference = v.order !== undefined ? `, booking reference ${v.order.bookingReference}` : '';
  const total = v.order !== undefined ? `, total ${money(v.order.total)}` : '';
  s.out(`✓ ${id}: ${v.status}${reference}${total}`);
  const last = v.changes?.[v.changes.length - 1];
  if (last !== undefined) s.out(`  ${id}: ${changeLine(last)}`);
  if (v.refund !== undefined) s.out(`  ${id}: refund ${money(v.refund)}`);
  return v;
}

/** {@link reportDone}; true when the action was done. */
const done = (s: Session, id: string, r: ApiAnswer | undefined) => reportDone(s, id, r) !== undefined;

// ------------------------------------------------------------------ the commands

/** `show <id>`: GET the booking and print it. */
async function show(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const r = await http(s, 'GET', bookingPath(c.id));
  if (r.status !== 200) return refused(s, c.id, r);
  for (const line of showLines(r.json as unknown as BookingView)) s.out(line);
  return true;
}

/** `pay <id>`: POST /payment with the test card. */
async function pay(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const r = await act(s, c.id, bookingPath(c.id, '/payment'), { card: s.card }, c.key ?? s.newKey());
  const v = reportDone(s, c.id, r);
  if (v?.payment !== undefined) s.out(`  ${c.id}: ${paymentLine(v.payment)}`);
  return v !== undefined;
}

/** The change offers for the command's dates (`undefined`: refused, said). */
async function offersFor(s: Session, c: ServicingCommand): Promise<ChangeOffersAnswer['offers'] | undefined> {
  const [departureDate, returnDate] = c.args;
  const body = {
    journey: { departureDate, ...(returnDate !== undefined ? { returnDate } : {}) },
    ...(c.priceClass !== undefined ? { priceClass: c.priceClass } : {}),
  };
  const r = await http(s, 'POST', bookingPath(c.id, '/change-offers'), body);
  if (r.status !== 200) {
    refused(s, c.id, r);
    return undefined;
  }
  return (r.json as unknown as ChangeOffersAnswer).offers;
}

/** `change-offers <id> <date> [<returnDate>]`: one line per offer. */
async function changeOffers(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const offers = await offersFor(s, c);
  if (offers === undefined) return false;
  s.out(`  ${c.id}: ${offers.length} change offer${offers.length === 1 ? '' : 's'} for ${c.args.join(' to ')}`);
  for (const offer of offers) s.out(`    ${offerLine(offer)}`);
  return true;
}

/** `change <id> <date>` (the cheapest offer: the lowest difference) or `change <id> --offer O`. */
async function change(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  let offerId = c.offer;
  if (offerId === undefined) {
    const offers = await offersFor(s, c);
    if (offers === undefined) return false;
    const cheapest = offers.reduce<(typeof offers)[number] | undefined>(
      (best, o) => (best === undefined || compare(o.difference.value, best.difference.value) < 0 ? o : best),
      undefined,
    );
    if (cheapest === undefined) {
      s.out(`✗ ${c.id}: no change offers for ${c.args.join(' to ')}`);
      return false;
    }
    s.out(`  ${c.id}: taking ${cheapest.id}, the cheapest of ${offers.length}: ${offerLine(cheapest)}`);
    offerId = cheapest.id;
  }
  const body = { offerId, ...(c.maxDifference !== undefined ? { maxDifference: c.maxDifference } : {}) };
  return done(s, c.id, await actPaying(s, c, '/changes', body));
}

/** `services <id>`: one line per service on sale. */
async function services(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const r = await http(s, 'GET', bookingPath(c.id, '/services'));
  if (r.status !== 200) return refused(s, c.id, r);
  const list = (r.json as unknown as OrderServicesAnswer).services;
  s.out(`  ${c.id}: ${list.length} service${list.length === 1 ? '' : 's'} on sale`);
  for (const x of list)
    s.out(`    passenger ${x.passenger} ${x.code} ${x.direction} on ${x.segment}, ${x.price} ${x.currency}`);
  return true;
}

/** `seat-map <id>`: the free seats of each segment, grouped by price. */
async function seatMap(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const r = await http(s, 'GET', bookingPath(c.id, '/seat-map'));
  if (r.status !== 200) return refused(s, c.id, r);
  for (const line of seatMapLines(r.json as unknown as SeatMapView)) s.out(`  ${c.id}: ${line}`);
  return true;
}

/** `add-bag <id>`: POST /services with one bag. */
async function addBag(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const bag = { passenger: c.passenger ?? 0, code: c.code ?? 'YN1', direction: c.direction ?? 'outbound' };
  return done(s, c.id, await actPaying(s, c, '/services', { bags: [bag] }));
}

/** `add-seat <id> <seat>`: POST /services with one seat. */
async function addSeat(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const seat = {
    passenger: c.passenger ?? 0,
    seat: c.args[0],
    ...(c.segment !== undefined ? { segment: c.segment } : {}),
  };
  return done(s, c.id, await actPaying(s, c, '/services', { seats: [seat] }));
}

/** `cancel-quote <id>`: the refund, the penalty, for whom, until when. */
async function cancelQuote(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const body = c.passengers !== undefined ? { passengers: c.passengers } : undefined;
  const r = await http(s, 'POST', bookingPath(c.id, '/cancel-quote'), body);
  if (r.status !== 200) return refused(s, c.id, r);
  const q = r.json as unknown as RefundQuoteAnswer;
  s.out(
    `  ${c.id}: cancelling passengers ${q.passengers.join(', ')} refunds ${money(q.refund)}, penalty ${money(q.penalty)}` +
      (q.expiresAt !== undefined ? ` (quote valid until ${q.expiresAt})` : ''),
  );
  return true;
}

/** `cancel <id> --passengers 1`: those travellers removed; without: the whole booking ({@link cancelBooking}). */
async function cancel(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  if (c.passengers === undefined) return cancelBooking(s, c);
  const body = { passengers: c.passengers, ...(c.reason !== undefined ? { reason: c.reason } : {}) };
  return done(s, c.id, await act(s, c.id, bookingPath(c.id, '/cancel'), body, c.key ?? s.newKey()));
}

/** The whole booking cancelled: its refund and fee, following it while it is `CANCELLING`. */
async function cancelBooking(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const r = await http(s, 'POST', bookingPath(c.id, '/cancel'), c.reason !== undefined ? { reason: c.reason } : {});
  if (r.status < 200 || r.status > 299) return refused(s, c.id, r);
  let v: Pick<SignalSent, 'status' | 'cancellation'> = r.json as unknown as SignalSent;
  const deadline = Date.now() + s.timeoutMs;
  while (v.status === 'CANCELLING' && Date.now() < deadline) {
    s.out(`  ${c.id}: CANCELLING`);
    await sleep(s.pollMs);
    const read = await http(s, 'GET', bookingPath(c.id));
    if (read.status !== 200) return refused(s, c.id, read);
    v = read.json as unknown as BookingView;
  }
  const x = v.cancellation;
  const ok = v.status === 'CANCELLED' || (x === undefined && v.status !== 'CANCELLING');
  const refund = x?.refund !== undefined ? `, refund ${money(x.refund)}` : '';
  const fee = x?.fee !== undefined ? `, fee ${money(x.fee)}` : '';
  const error = x?.error !== undefined ? `, ${x.error.type}: ${x.error.message}` : '';
  s.out(
    `${ok ? '✓' : '✗'} ${c.id}: ${v.status}${x !== undefined ? `, cancellation ${x.status}` : ''}${refund}${fee}${error}`,
  );
  return ok;
}

/** `airline-change <id> accept|cancel|rebook [--offer O]`: the agency's answer (POST /airline-change). */
async function airlineChange(s: ServicingSession, c: ServicingCommand): Promise<boolean> {
  const body = { action: c.args[0], ...(c.offer !== undefined ? { offerId: c.offer } : {}) };
  return done(s, c.id, await actPaying(s, c, '/airline-change', body));
}
