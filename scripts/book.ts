/**
 * `npm run book -- [--batch [--atomic]] [--hold] [--key K] [--approve] [<intent.json ...>]`,
 * `npm run book -- --attach <batchId>`, or `npm run book -- <command> <id> ...` for the order after
 * the booking (see {@link USAGE}; the commands are scripts/book-servicing.ts). Talks to the API
 * (API_URL, default http://127.0.0.1:3000) with the API key of NDC_SAGA_API_KEY (default: the
 * development agency key `npm start` created in `.data/`).
 *
 * Booking: submits booking intents (default: `examples/one-way.json`), shows each booking's whole
 * trail as it happens (every step as it starts and ends, also those that started and ended between
 * two polls) and prints each outcome: booking reference and total (with `--hold`: the amount due,
 * by when, and until when the price holds), or the error. Exit code 1 when any booking did not end
 * CONFIRMED (HELD with `--hold`), 2 on bad usage or an unreachable API. A servicing command exits 1
 * when the API refused it or it failed.
 *
 * Dates in intent files and in the commands' dates may be relative, resolved here against today
 * (UTC) before sending: `+30d` (30 days from today), `-8y` (8 years ago), `-7m` (7 months ago). The
 * API itself only accepts `YYYY-MM-DD`. A file may hold one intent or an array of intents.
 */
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { BatchView, BookingView } from '../src/api/common/api.schemas';
import { isBookingStatus, isFinalStatus } from '../src/booking/booking.model';
import {
  bookingPath,
  describeError,
  Help,
  http,
  money,
  resolveDate,
  sleep,
  Usage,
  waitingLine,
  type Session,
} from './book-api';
import { paymentLine } from './book-lines';
import {
  isServicingCommand,
  readServicingCommand,
  runServicing,
  SERVICING_OPTIONS,
  servicingUsage,
  type ServicingCommand,
} from './book-servicing';
import { DEV_KEYS_SECRET_FILE, readDevKeys } from './keys';
import { PROJECT_ROOT } from './temporal-cli';

export { resolveDate };

/** The intent booked when no file is given. */
export const DEFAULT_INTENT = path.join(PROJECT_ROOT, 'examples', 'one-way.json');
/** The intent whose card (the airline's test debit card: no card surcharge) pays what the servicing commands owe. */
export const TEST_CARD_INTENT = path.join(PROJECT_ROOT, 'examples', 'debit-card.json');

/** Copy of `intent` with relative dates (journey dates, birthdates) resolved. */
export function resolveRelativeDates<T>(intent: T, today: Date): T {
  const copy = JSON.parse(JSON.stringify(intent)) as {
    journey?: { departureDate?: unknown; returnDate?: unknown };
    passengers?: { birthdate?: unknown }[];
  };
  const fix = (v: unknown) => (typeof v === 'string' ? resolveDate(v, today) : v);
  if (copy.journey !== undefined) {
    if (copy.journey.departureDate !== undefined) copy.journey.departureDate = fix(copy.journey.departureDate);
    if (copy.journey.returnDate !== undefined) copy.journey.returnDate = fix(copy.journey.returnDate);
  }
  for (const p of copy.passengers ?? []) if (p.birthdate !== undefined) p.birthdate = fix(p.birthdate);
  return copy as T;
}

/** The usage text (`--help` prints it to stdout). */
export const USAGE = `usage: npm run book -- [options] [<intent.json ...>]
       npm run book -- --attach <batchId>
       npm run book -- <command> <id> [arguments] [options]

  --batch          submit all intents as one batch (prints its id)
  --atomic         with --batch: all or nothing (a failed booking cancels the confirmed ones)
  --hold           book with payment: { hold: true } (no card): the booking ends HELD, paid later
                   with the pay command
  --key <key>      Idempotency-Key (1-100 of A-Z a-z 0-9 _ . : -): the same key again resumes the
                   same batch, booking or servicing action instead of doing it again (default: a
                   fresh key per run; several single bookings get <key>-1, <key>-2, ...)
  --attach <id>    follow a batch already submitted (e.g. after an interrupted run)
  --approve        approve price-guard waits automatically
  --help, -h       this text
  without an intent file: examples/one-way.json

commands (the order after the booking; <id> is the booking's id; dates YYYY-MM-DD or +30d;
passengers are indexes in the intent, 0 the first; the test card is examples/debit-card.json's):
${servicingUsage()}

environment: API_URL (default http://127.0.0.1:3000), NDC_SAGA_API_KEY (default: the development
agency key npm start created), BOOK_TIMEOUT_MS (default 300000).
exit code: 0 when every booking ended CONFIRMED (HELD with --hold) or the command succeeded, 1
otherwise, 2 on bad usage or an unreachable API.
`;

/** What the booking mode was asked for on the command line. */
interface BookOptions {
  files: string[];
  batch: boolean;
  atomic: boolean;
  /** Book with `payment: { hold: true }` instead of the intents' cards. */
  hold: boolean;
  /** Idempotency-Key given with --key. */
  key?: string;
  /** Batch id given with --attach. */
  attach?: string;
}

/** The command line, read: booking intents (or following a batch), or a servicing command. */
export type CommandLine =
  | { kind: 'book'; approve: boolean; book: BookOptions }
  | { kind: 'servicing'; approve: boolean; command: ServicingCommand };

interface Job {
  label: string;
  intent: unknown;
  id?: string;
}

/** A step of the booking's trail as GET /bookings/:id shows it (BookingView.steps). */
export interface TrailStep {
  name: string;
  /** The airline the step ran at (bookings routed by airline). */
  airline?: string;
  attempts: number;
  startedAt?: string;
  endedAt?: string;
  outcome?: 'ok' | 'failed';
  failure?: string;
  reason?: string;
}

/**
 * The lines for what happened on the trail between two polls (`before`, then `now`): each new step
 * as it started (with why it runs), and each step that has ended since (how, after how many
 * attempts), in trail order, including steps that started and ended between the two polls.
 */
export function trailLines(label: string, before: readonly TrailStep[], now: readonly TrailStep[]): string[] {
  const lines: string[] = [];
  now.forEach((step, i) => {
    const seen = before[i];
    // Every line names the airline the step ran at: a shop at two airlines is two steps.
    const name = step.airline !== undefined ? `${step.name} at ${step.airline}` : step.name;
    if (seen === undefined) lines.push(`  ${label}: ${name}${step.reason !== undefined ? ` (${step.reason})` : ''}`);
    if (step.endedAt !== undefined && seen?.endedAt === undefined) {
      const tries = step.attempts > 1 ? ` after ${step.attempts} attempts` : '';
      const how = step.outcome === 'failed' ? `failed${step.failure !== undefined ? ` ${step.failure}` : ''}` : 'ok';
      lines.push(`  ${label}: ${name} ${how}${tries}`);
    }
  });
  return lines;
}

/** The airlines shopped, each one's best offer or why it had none, and which won and why. */
export function airlineLines(label: string, airlines: NonNullable<BookingView['airlines']>): string[] {
  return [
    `  ${label}: shopped at ${airlines.map((a) => a.airline).join(', ')}`,
    ...airlines.map((a) => {
      const best = a.total !== undefined ? `best offer ${a.total.value} ${a.total.currency}` : `no offer: ${a.skipped}`;
      return `    ${a.airline.padEnd(3)} ${best}${a.chosen ? `  <- chosen (${a.why})` : ''}`;
    }),
  ];
}

const KEY_RE = /^[A-Za-z0-9_.:-]{1,100}$/;

const BOOKING_OPTIONS = ['batch', 'atomic', 'hold', 'attach'] as const;

/**
 * Reads the command line with `node:util` `parseArgs` (unknown options refused): a servicing
 * command when the first argument names one (its dates resolved against `today`), else booking
 * intents. Throws {@link Usage} (bad usage) or {@link Help} (`--help`).
 */
export function parseCommandLine(argv: string[], today: Date): CommandLine {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs(argv);
  } catch (error) {
    throw argsError(error as Error & { code?: string });
  }
  const { values, positionals } = parsed;
  if (values.help === true) throw new Help();
  const { approve = false, key } = values;
  if (key !== undefined && !KEY_RE.test(key)) throw new Usage('--key must be 1-100 of A-Z a-z 0-9 _ . : -');
  if (isServicingCommand(positionals[0])) {
    const booking = BOOKING_OPTIONS.find((o) => values[o] !== undefined);
    if (booking !== undefined) throw new Usage(`--${booking} is not an option of ${positionals[0]}`);
    const { batch: _b, atomic: _a, hold: _h, attach: _t, help: _x, ...servicing } = values;
    return { kind: 'servicing', approve, command: readServicingCommand(positionals, servicing, today) };
  }
  const misplaced = SERVICING_OPTIONS.find((o) => o !== 'key' && values[o] !== undefined);
  if (misplaced !== undefined) throw new Usage(`--${misplaced} belongs to a command (npm run book -- --help)`);
  return { kind: 'book', approve, book: readBookOptions(values, positionals) };
}

/** What `parseArgs` refused, said shortly: an unknown option, an option without its value. */
function argsError(error: Error & { code?: string }): Usage {
  const option = /'(--?[\w-]+)/.exec(error.message)?.[1];
  if (option === undefined) return new Usage(error.message.split('\n')[0]);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new Usage(`unknown option ${option}`);
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return new Usage(`${option} needs a value`);
  return new Usage(error.message.split('\n')[0]);
}

/** The booking mode's options, checked against each other. */
function readBookOptions(values: ReturnType<typeof readArgs>['values'], files: string[]): BookOptions {
  const { batch = false, atomic = false, hold = false, key, attach } = values;
  if (attach !== undefined && (files.length > 0 || batch || hold || key !== undefined))
    throw new Usage('--attach takes a batch id and no files, --batch, --hold or --key');
  if (atomic && !batch) throw new Usage('--atomic needs --batch');
  const unknown = files.find((file) => !fs.existsSync(file));
  if (unknown !== undefined) throw new Usage(`${unknown}: no such command or intent file`);
  return {
    files: attach === undefined && files.length === 0 ? [DEFAULT_INTENT] : files,
    batch,
    atomic,
    hold,
    ...(key !== undefined ? { key } : {}),
    ...(attach !== undefined ? { attach } : {}),
  };
}

const STRING = { type: 'string' } as const;
const BOOLEAN = { type: 'boolean' } as const;

function readArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      batch: BOOLEAN,
      atomic: BOOLEAN,
      hold: BOOLEAN,
      approve: BOOLEAN,
      key: STRING,
      attach: STRING,
      help: { type: 'boolean', short: 'h' },
      // The servicing commands' (SERVICING_OPTIONS).
      offer: STRING,
      'max-difference': STRING,
      'price-class': STRING,
      passenger: STRING,
      passengers: STRING,
      code: STRING,
      direction: STRING,
      segment: STRING,
      reason: STRING,
    },
  });
}

/** The API key to use: NDC_SAGA_API_KEY, else the development agency key of `npm start`. */
export function apiKeyFromEnv(env: NodeJS.ProcessEnv, secretFile: string = DEV_KEYS_SECRET_FILE): string | undefined {
  const fromEnv = env.NDC_SAGA_API_KEY?.trim();
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return readDevKeys(secretFile)?.agencyKey;
}

/** The intents of `files`, relative dates resolved; with `hold`, to be paid later (`payment: { hold: true }`). */
function loadJobs(files: string[], today: Date, hold: boolean): Job[] {
  const jobs: Job[] = [];
  for (const file of files) {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    list.forEach((intent, i) => {
      const label = list.length > 1 ? `${path.basename(file)}[${i}]` : path.basename(file);
      const resolved = resolveRelativeDates(intent as Record<string, unknown>, today);
      jobs.push({ label, intent: hold ? { ...resolved, payment: { hold: true } } : resolved });
    });
  }
  return jobs;
}

/** Polls one booking until it ends, printing each new step and what it waits for. */
async function follow(job: Job, s: Session, deadline: number): Promise<BookingView | undefined> {
  let steps: readonly TrailStep[] = [];
  let until = deadline;
  let lastStatus = '';
  let approved = false;
  let comparedShown = false;
  while (Date.now() < until) {
    const r = await http(s, 'GET', bookingPath(job.id!));
    if (r.status === 200) {
      const v = r.json as unknown as BookingView;
      if (v.airlines !== undefined && !comparedShown) {
        comparedShown = true;
        for (const line of airlineLines(job.label, v.airlines)) s.out(line);
      }
      // A stale view (no worker answered) has no steps: keep what was shown.
      if (v.stale === undefined) {
        for (const line of trailLines(job.label, steps, v.steps)) s.out(line);
        steps = v.steps;
      }
      const waiting = v.status !== lastStatus ? waitingLine(job.label, v, s) : undefined;
      if (waiting !== undefined) s.out(waiting);
      // 3-D Secure: wait for the person (the booking's own window), not the script's deadline.
      if (v.status === 'AWAITING_AUTHENTICATION' && v.authentication !== undefined)
        until = Math.max(until, Date.parse(v.authentication.expiresAt) + 60_000);
      if (v.status === 'AWAITING_APPROVAL' && s.approve && !approved) {
        approved = true;
        await http(s, 'POST', bookingPath(job.id!, '/approve-price'));
      }
      lastStatus = v.status;
      if (isBookingStatus(v.status) && isFinalStatus(v.status)) return v;
    } else if (r.status !== 503) {
      s.out(`  ${job.label}: GET failed, ${r.status} ${describeError(r.json)}`);
      return undefined;
    }
    await sleep(s.pollMs);
  }
  return undefined;
}

/** Prints a booking's outcome; true when it ended as asked (CONFIRMED, or HELD with `--hold`). */
function outcome(job: Job, v: BookingView | undefined, s: Session, hold: boolean): boolean {
  if (v === undefined) {
    s.out(`✗ ${job.label}: no outcome before the deadline (booking ${job.id ?? 'not created'})`);
    return false;
  }
  const at = v.airline !== undefined ? ` at ${v.airline}` : '';
  if (v.status === 'CONFIRMED' && v.order !== undefined) {
    const surcharge = v.surcharge !== undefined ? ` incl. card surcharge ${money(v.surcharge)}` : '';
    s.out(
      `✓ ${job.label}: CONFIRMED${at}, booking reference ${v.order.bookingReference}, total ${money(v.order.total)}${surcharge} (order ${v.order.orderId}, id ${v.id})`,
    );
    for (const line of extrasLines(job.label, v.extras)) s.out(line);
    return true;
  }
  if (v.status === 'HELD' && v.order !== undefined && v.payment !== undefined) {
    s.out(
      `✓ ${job.label}: HELD${at}, booking reference ${v.order.bookingReference}, ${paymentLine(v.payment)} (order ${v.order.orderId}, id ${v.id})`,
    );
    s.out(`  ${job.label}: pay it with npm run book -- pay ${v.id}`);
    return hold;
  }
  const e = v.error;
  s.out(
    `✗ ${job.label}: ${v.status}${e ? `, ${e.type}: ${e.message}${e.airlineCode ? ` (airline code ${e.airlineCode})` : ''}` : ''} (id ${v.id})`,
  );
  for (const reason of e?.airlines ?? []) s.out(`    ${reason.airline.padEnd(3)} ${reason.type}: ${reason.message}`);
  return false;
}

/** The extras of a booking as `extrasLines` reads them. */
interface ExtrasView {
  priced: {
    passenger: number;
    code: string;
    seat?: string;
    segmentKeys: string[];
    price?: { value: string; currency: string };
  }[];
  total?: { value: string; currency: string };
  notes: string[];
}

/** One line per priced extra (passenger, code, seat, segments, price) and per note. */
export function extrasLines(label: string, extras: ExtrasView | undefined): string[] {
  if (extras === undefined) return [];
  const lines = extras.priced.map(
    (p) =>
      `  ${label}: passenger ${p.passenger} ${p.code}${p.seat !== undefined ? ` seat ${p.seat}` : ''} on ${p.segmentKeys.join(' ')}` +
      (p.price !== undefined ? `, ${money(p.price)}` : ''),
  );
  if (extras.total !== undefined) lines.push(`  ${label}: extras total ${money(extras.total)}`);
  return [...lines, ...extras.notes.map((n) => `  ${label}: ${n}`)];
}

async function runSingly(jobs: Job[], s: Session, o: BookOptions): Promise<boolean> {
  const deadline = Date.now() + s.timeoutMs;
  for (const [i, job] of jobs.entries()) {
    const key = o.key === undefined ? `cli-${randomUUID()}` : jobs.length === 1 ? o.key : `${o.key}-${i + 1}`;
    const r = await http(s, 'POST', '/bookings', job.intent, { 'Idempotency-Key': key });
    if (r.status !== 202) {
      s.out(`✗ ${job.label}: refused, ${r.status} ${describeError(r.json)}`);
      continue;
    }
    job.id = (r.json as { id: string }).id;
    s.out(`→ ${job.label}: submitted as ${job.id}`);
  }
  const results = await Promise.all(
    jobs.filter((j) => j.id !== undefined).map(async (j) => outcome(j, await follow(j, s, deadline), s, o.hold)),
  );
  return results.length === jobs.length && results.every(Boolean);
}

async function runBatch(jobs: Job[], s: Session, o: BookOptions): Promise<boolean> {
  const key = o.key ?? `cli-${randomUUID()}`;
  const intents = jobs.map((j) => j.intent);
  const r = await http(s, 'POST', '/batches', o.atomic ? { atomic: true, intents } : intents, {
    'Idempotency-Key': key,
  });
  if (r.status !== 202) {
    s.out(`✗ batch refused, ${r.status} ${describeError(r.json)}`);
    return false;
  }
  const accepted = r.json as { id: string; existing: boolean };
  const batchId = accepted.id;
  s.out(
    accepted.existing
      ? `→ batch ${batchId}: already submitted with key ${key}, following it`
      : `→ batch of ${jobs.length}${o.atomic ? ' (atomic)' : ''} submitted as ${batchId} (key ${key})`,
  );
  s.out(
    `  batch id: ${batchId}   follow it again: npm run book -- --attach ${batchId}   resubmit safely: --key ${key}`,
  );
  return followBatch(batchId, jobs, s, o.hold);
}

/** Polls a batch until it is done, then prints each booking's outcome. */
async function followBatch(batchId: string, jobs: Job[], s: Session, hold: boolean): Promise<boolean> {
  const deadline = Date.now() + s.timeoutMs;
  let last = '';
  let progress: BatchView | undefined;
  while (Date.now() < deadline) {
    const p = await http(s, 'GET', `/batches/${encodeURIComponent(batchId)}`);
    if (p.status === 200) {
      progress = p.json as unknown as BatchView;
      const held = progress.held > 0 ? `${progress.held} held, ` : '';
      const line = `  batch: ${progress.confirmed} confirmed, ${held}${progress.failed} failed, ${progress.cancelled} cancelled, ${progress.running} running, ${progress.pending} pending of ${progress.total}`;
      if (line !== last) s.out(line);
      last = line;
      if (progress.done) break;
    }
    await sleep(s.pollMs);
  }
  if (progress === undefined || !progress.done) {
    s.out(`✗ batch did not finish before the deadline (follow it again: npm run book -- --attach ${batchId})`);
    return false;
  }
  if (progress.atomic === true) {
    s.out(`  batch ${batchId}: ${progress.status}${progress.skipped ? `, ${progress.skipped} not started` : ''}`);
  }
  const results: boolean[] = [];
  for (const [i, b] of progress.bookings.entries()) {
    const job = jobs[i] ?? { label: b.id, intent: undefined };
    job.id = b.id;
    const v = await http(s, 'GET', bookingPath(b.id));
    results.push(outcome(job, v.status === 200 ? (v.json as unknown as BookingView) : undefined, s, hold));
  }
  return results.length === (jobs.length > 0 ? jobs.length : progress.total) && results.every(Boolean);
}

/** Where `run` reads its settings and writes its lines (the process's, from `main`). */
export interface RunContext {
  env: NodeJS.ProcessEnv;
  /** One line of the report (stdout). */
  out: (line: string) => void;
  /** Usage and errors (stderr), as they are (ending in a newline). */
  err: (text: string) => void;
  /** Pause between two polls, in ms. Default 500. */
  pollMs?: number;
  /** Today (relative dates). Default: now. */
  today?: Date;
  /** A fresh Idempotency-Key for a servicing action without `--key`. Default: `cli-<uuid>`. */
  newKey?: () => string;
}

/**
 * The card the servicing commands pay with: {@link TEST_CARD_INTENT}'s (a debit card, so no card
 * surcharge). Sensitive: sent, never printed.
 */
function testCard(): unknown {
  return (JSON.parse(fs.readFileSync(TEST_CARD_INTENT, 'utf8')) as { payment: { card: unknown } }).payment.card;
}

/** Runs `npm run book` with `argv` (the arguments after `--`); resolves to its exit code. */
export async function run(argv: string[], ctx: RunContext): Promise<number> {
  const today = ctx.today ?? new Date();
  let line: CommandLine;
  try {
    line = parseCommandLine(argv, today);
    if (apiKeyFromEnv(ctx.env) === undefined)
      throw new Usage(
        `no API key: set NDC_SAGA_API_KEY, or run npm start once (it creates a development key in ${DEV_KEYS_SECRET_FILE})`,
      );
  } catch (err) {
    if (err instanceof Help) {
      ctx.out(USAGE.trimEnd());
      return 0;
    }
    if (!(err instanceof Usage)) throw err;
    ctx.err(`book: ${err.message}\n${USAGE}`);
    return 2;
  }
  const s: Session = {
    apiUrl: (ctx.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    authorization: `Bearer ${apiKeyFromEnv(ctx.env)}`,
    out: ctx.out,
    approve: line.approve,
    timeoutMs: Number(ctx.env.BOOK_TIMEOUT_MS ?? 300_000),
    pollMs: ctx.pollMs ?? 500,
  };
  try {
    await fetch(`${s.apiUrl}/health`);
  } catch {
    ctx.err(`book: the API does not answer at ${s.apiUrl} (start it with npm start, or set API_URL)\n`);
    return 2;
  }
  return (await dispatch(line, s, ctx, today)) ? 0 : 1;
}

/** Runs what the command line asked for; true when it succeeded. */
function dispatch(line: CommandLine, s: Session, ctx: RunContext, today: Date): Promise<boolean> {
  if (line.kind === 'servicing') {
    const newKey = ctx.newKey ?? (() => `cli-${randomUUID()}`);
    return runServicing({ ...s, card: testCard(), newKey }, line.command);
  }
  const o = line.book;
  if (o.attach !== undefined) return followBatch(o.attach, [], s, false);
  const jobs = loadJobs(o.files, today, o.hold);
  return o.batch ? runBatch(jobs, s, o) : runSingly(jobs, s, o);
}

if (require.main === module) {
  run(process.argv.slice(2), {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (text) => process.stderr.write(text),
  }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`book: ${(err as Error).message}\n`);
      process.exit(2);
    },
  );
}
