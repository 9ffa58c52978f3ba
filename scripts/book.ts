/**
 * `npm run book -- [--batch [--atomic]] [--key K] [--approve] <intent.json ...>` or
 * `npm run book -- --attach <batchId>` (see {@link USAGE}): submits booking intents to the API
 * (API_URL, default http://127.0.0.1:3000) with the API key of NDC_SAGA_API_KEY (default: the
 * development agency key `npm start` created in `.data/`), shows each booking's whole trail as it happens (every step as it starts and ends,
 * also those that started and ended between two polls) and prints each outcome: booking reference
 * and total, or the error. Exit code 1 when any
 * booking did not end CONFIRMED (2 on bad usage or an unreachable API).
 *
 * Dates in intent files may be relative, resolved here against today (UTC) before sending:
 * `+30d` (30 days from today), `-8y` (8 years ago), `-7m` (7 months ago). The API itself only
 * accepts `YYYY-MM-DD`. A file may hold one intent or an array of intents.
 */
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { BatchView } from '../src/api/batches/batch.service';
import { isBookingStatus, isFinalStatus } from '../src/booking/booking.model';
import { DEV_KEYS_SECRET_FILE, readDevKeys } from './keys';

const RELATIVE = /^([+-])(\d{1,4})([dmy])$/;

/** Resolves `+30d` / `-8y` / `-7m` against `today` (UTC); other values are returned as they are. */
export function resolveDate(value: string, today: Date): string {
  const m = RELATIVE.exec(value);
  if (m === null) return value;
  const n = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  const y = today.getUTCFullYear() + (m[3] === 'y' ? n : 0);
  const mo = today.getUTCMonth() + (m[3] === 'm' ? n : 0);
  const d = today.getUTCDate() + (m[3] === 'd' ? n : 0);
  return new Date(Date.UTC(y, mo, d)).toISOString().slice(0, 10);
}

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
export const USAGE = `usage: npm run book -- [options] <intent.json ...>
       npm run book -- --attach <batchId>

  --batch          submit all intents as one batch (prints its id)
  --atomic         with --batch: all or nothing (a failed booking cancels the confirmed ones)
  --key <key>      Idempotency-Key (1-100 of A-Z a-z 0-9 _ . : -): the same key again resumes the
                   same batch or booking instead of booking again (default: a fresh key per run;
                   several single bookings get <key>-1, <key>-2, ...)
  --attach <id>    follow a batch already submitted (e.g. after an interrupted run)
  --approve        approve price-guard waits automatically
  --help, -h       this text

environment: API_URL (default http://127.0.0.1:3000), NDC_SAGA_API_KEY (default: the development
agency key npm start created), BOOK_TIMEOUT_MS (default 300000).
exit code: 0 when every booking ended CONFIRMED, 1 otherwise, 2 on bad usage or an unreachable API.
`;

interface Options {
  files: string[];
  batch: boolean;
  atomic: boolean;
  /** Idempotency-Key given with --key. */
  key?: string;
  /** Batch id given with --attach. */
  attach?: string;
  approve: boolean;
  apiUrl: string;
  timeoutMs: number;
  /** `Authorization` header value. */
  authorization: string;
}

interface Job {
  label: string;
  intent: unknown;
  id?: string;
}

interface Money {
  value: string;
  currency: string;
}

interface View {
  id: string;
  status: string;
  currentStep?: string;
  steps?: TrailStep[];
  pricedTotal?: Money;
  surcharge?: Money;
  extras?: {
    priced: { passenger: number; code: string; seat?: string; segmentKeys: string[]; price?: Money }[];
    total?: Money;
    notes: string[];
  };
  /** 3-D Secure: where the cardholder's browser must go, and until when the booking waits. */
  authentication?: { redirectUrl: string; expiresAt: string };
  order?: { bookingReference: string; orderId: string; total: Money };
  error?: {
    type: string;
    message: string;
    airlineCode?: string;
    airlines?: { airline: string; type: string; message: string }[];
  };
  airline?: string;
  airlines?: { airline: string; total?: Money; chosen?: true; why?: string; skipped?: string }[];
}

/** The airlines shopped, each one's best offer or why it had none, and which won and why. */
export function airlineLines(label: string, airlines: NonNullable<View['airlines']>): string[] {
  return [
    `  ${label}: shopped at ${airlines.map((a) => a.airline).join(', ')}`,
    ...airlines.map((a) => {
      const best = a.total !== undefined ? `best offer ${a.total.value} ${a.total.currency}` : `no offer: ${a.skipped}`;
      return `    ${a.airline.padEnd(3)} ${best}${a.chosen ? `  <- chosen (${a.why})` : ''}`;
    }),
  ];
}

const out = (line: string) => process.stdout.write(`${line}\n`);

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

/** `--help` was asked for: usage on stdout, exit 0. */
class Help extends Error {}

const KEY_RE = /^[A-Za-z0-9_.:-]{1,100}$/;

/** The command line, read by `node:util` `parseArgs` (unknown options refused). */
function parseCommandLine(argv: string[]): Options {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs(argv);
  } catch (error) {
    throw new Usage((error as Error).message.split('\n')[0]!);
  }
  const { values, positionals: files } = parsed;
  if (values.help === true) throw new Help();
  const { batch = false, atomic = false, approve = false, key, attach } = values;
  if (key !== undefined && !KEY_RE.test(key)) throw new Usage('--key must be 1-100 of A-Z a-z 0-9 _ . : -');
  if (attach !== undefined && (files.length > 0 || batch || key !== undefined))
    throw new Usage('--attach takes a batch id and no files, --batch or --key');
  if (atomic && !batch) throw new Usage('--atomic needs --batch');
  if (attach === undefined && files.length === 0)
    throw new Usage('give at least one intent file (or --attach <batchId>)');
  const apiKey = apiKeyFromEnv(process.env);
  if (apiKey === undefined) {
    throw new Usage(
      `no API key: set NDC_SAGA_API_KEY, or run npm start once (it creates a development key in ${DEV_KEYS_SECRET_FILE})`,
    );
  }
  return {
    authorization: `Bearer ${apiKey}`,
    files,
    batch,
    atomic,
    ...(key !== undefined ? { key } : {}),
    ...(attach !== undefined ? { attach } : {}),
    approve,
    apiUrl: (process.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
    timeoutMs: Number(process.env.BOOK_TIMEOUT_MS ?? 300_000),
  };
}

function readArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      batch: { type: 'boolean' },
      atomic: { type: 'boolean' },
      approve: { type: 'boolean' },
      key: { type: 'string' },
      attach: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

class Usage extends Error {}

/** The API key to use: NDC_SAGA_API_KEY, else the development agency key of `npm start`. */
export function apiKeyFromEnv(env: NodeJS.ProcessEnv, secretFile: string = DEV_KEYS_SECRET_FILE): string | undefined {
  const fromEnv = env.NDC_SAGA_API_KEY?.trim();
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return readDevKeys(secretFile)?.agencyKey;
}

async function http(
  o: Pick<Options, 'authorization'>,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method,
    headers: {
      accept: 'application/json',
      authorization: o.authorization,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as Record<string, unknown> | undefined };
}

/** An RFC 9457 problem as the API answers errors. */
interface ErrorBody {
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  fields?: { path: string; message: string }[];
}

function describeError(body: unknown): string {
  if (body === undefined) return 'no body';
  const json = body as ErrorBody;
  const fields = Array.isArray(json.fields) ? json.fields.map((f) => `\n      ${f.path}: ${f.message}`).join('') : '';
  return `${json.code ?? json.title}: ${json.detail}${json.requestId !== undefined ? ` (request ${json.requestId})` : ''}${fields}`;
}

function loadJobs(files: string[], today: Date): Job[] {
  const jobs: Job[] = [];
  for (const file of files) {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    list.forEach((intent, i) => {
      const label = list.length > 1 ? `${path.basename(file)}[${i}]` : path.basename(file);
      jobs.push({ label, intent: resolveRelativeDates(intent, today) });
    });
  }
  return jobs;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls one booking until it ends, printing each new step and status. */
async function follow(job: Job, o: Options, deadline: number): Promise<View | undefined> {
  let steps: TrailStep[] = [];
  let until = deadline;
  let lastStatus = '';
  let approved = false;
  let comparedShown = false;
  while (Date.now() < until) {
    const r = await http(o, 'GET', `${o.apiUrl}/bookings/${encodeURIComponent(job.id!)}`);
    if (r.status === 200) {
      const v = r.json as unknown as View;
      if (v.airlines !== undefined && !comparedShown) {
        comparedShown = true;
        for (const line of airlineLines(job.label, v.airlines)) out(line);
      }
      // A stale view (no worker answered) has no steps: keep what was shown.
      if (v.steps !== undefined) {
        for (const line of trailLines(job.label, steps, v.steps)) out(line);
        steps = v.steps;
      }
      if (v.status !== lastStatus && v.status !== 'RUNNING') {
        if (v.status === 'AWAITING_APPROVAL') {
          out(
            `  ${job.label}: AWAITING_APPROVAL, priced ${v.pricedTotal?.value} ${v.pricedTotal?.currency} is above maxTotal` +
              (o.approve
                ? ' (approving)'
                : ` (approve: curl -X POST -H "Authorization: Bearer $NDC_SAGA_API_KEY" ${o.apiUrl}/bookings/${encodeURIComponent(job.id!)}/approve-price)`),
          );
        }
      }
      if (v.status === 'AWAITING_AUTHENTICATION' && lastStatus !== v.status && v.authentication !== undefined) {
        out(
          `  ${job.label}: AWAITING_AUTHENTICATION, the card needs 3-D Secure: open this in a browser and complete the payment before ${v.authentication.expiresAt}:\n    ${v.authentication.redirectUrl}`,
        );
        // Wait for the person (the booking's own window), not the script's deadline.
        until = Math.max(until, Date.parse(v.authentication.expiresAt) + 60_000);
      }
      if (v.status === 'AWAITING_APPROVAL' && o.approve && !approved) {
        approved = true;
        await http(o, 'POST', `${o.apiUrl}/bookings/${encodeURIComponent(job.id!)}/approve-price`);
      }
      lastStatus = v.status;
      if (isBookingStatus(v.status) && isFinalStatus(v.status)) return v;
    } else if (r.status !== 503) {
      out(`  ${job.label}: GET failed, ${r.status} ${describeError(r.json)}`);
      return undefined;
    }
    await sleep(500);
  }
  return undefined;
}

function outcome(job: Job, v: View | undefined): boolean {
  if (v === undefined) {
    out(`✗ ${job.label}: no outcome before the deadline (booking ${job.id ?? 'not created'})`);
    return false;
  }
  if (v.status === 'CONFIRMED' && v.order !== undefined) {
    const surcharge =
      v.surcharge !== undefined ? ` incl. card surcharge ${v.surcharge.value} ${v.surcharge.currency}` : '';
    out(
      `✓ ${job.label}: CONFIRMED${v.airline !== undefined ? ` at ${v.airline}` : ''}, booking reference ${v.order.bookingReference}, total ${v.order.total.value} ${v.order.total.currency}${surcharge} (order ${v.order.orderId}, id ${v.id})`,
    );
    for (const line of extrasLines(job.label, v.extras)) out(line);
    return true;
  }
  const e = v.error;
  out(
    `✗ ${job.label}: ${v.status}${e ? `, ${e.type}: ${e.message}${e.airlineCode ? ` (airline code ${e.airlineCode})` : ''}` : ''} (id ${v.id})`,
  );
  for (const reason of e?.airlines ?? []) out(`    ${reason.airline.padEnd(3)} ${reason.type}: ${reason.message}`);
  return false;
}

/** One line per priced extra (passenger, code, seat, segments, price) and per note. */
export function extrasLines(label: string, extras: View['extras']): string[] {
  if (extras === undefined) return [];
  const lines = extras.priced.map(
    (p) =>
      `  ${label}: passenger ${p.passenger} ${p.code}${p.seat !== undefined ? ` seat ${p.seat}` : ''} on ${p.segmentKeys.join(' ')}` +
      (p.price !== undefined ? `, ${p.price.value} ${p.price.currency}` : ''),
  );
  if (extras.total !== undefined) lines.push(`  ${label}: extras total ${extras.total.value} ${extras.total.currency}`);
  return [...lines, ...extras.notes.map((n) => `  ${label}: ${n}`)];
}

async function runSingly(jobs: Job[], o: Options): Promise<boolean> {
  const deadline = Date.now() + o.timeoutMs;
  for (const [i, job] of jobs.entries()) {
    const key = o.key === undefined ? `cli-${randomUUID()}` : jobs.length === 1 ? o.key : `${o.key}-${i + 1}`;
    const r = await http(o, 'POST', `${o.apiUrl}/bookings`, job.intent, { 'Idempotency-Key': key });
    if (r.status !== 202) {
      out(`✗ ${job.label}: refused, ${r.status} ${describeError(r.json)}`);
      continue;
    }
    job.id = (r.json as { id: string }).id;
    out(`→ ${job.label}: submitted as ${job.id}`);
  }
  const results = await Promise.all(
    jobs.filter((j) => j.id !== undefined).map(async (j) => outcome(j, await follow(j, o, deadline))),
  );
  return results.length === jobs.length && results.every(Boolean);
}

async function runBatch(jobs: Job[], o: Options): Promise<boolean> {
  const key = o.key ?? `cli-${randomUUID()}`;
  const intents = jobs.map((j) => j.intent);
  const r = await http(o, 'POST', `${o.apiUrl}/batches`, o.atomic ? { atomic: true, intents } : intents, {
    'Idempotency-Key': key,
  });
  if (r.status !== 202) {
    out(`✗ batch refused, ${r.status} ${describeError(r.json)}`);
    return false;
  }
  const accepted = r.json as { id: string; existing: boolean };
  const batchId = accepted.id;
  out(
    accepted.existing
      ? `→ batch ${batchId}: already submitted with key ${key}, following it`
      : `→ batch of ${jobs.length}${o.atomic ? ' (atomic)' : ''} submitted as ${batchId} (key ${key})`,
  );
  out(`  batch id: ${batchId}   follow it again: npm run book -- --attach ${batchId}   resubmit safely: --key ${key}`);
  return followBatch(batchId, jobs, o);
}

/** Polls a batch until it is done, then prints each booking's outcome. */
async function followBatch(batchId: string, jobs: Job[], o: Options): Promise<boolean> {
  const deadline = Date.now() + o.timeoutMs;
  let last = '';
  let progress: BatchView | undefined;
  while (Date.now() < deadline) {
    const p = await http(o, 'GET', `${o.apiUrl}/batches/${encodeURIComponent(batchId)}`);
    if (p.status === 200) {
      progress = p.json as unknown as BatchView;
      const line = `  batch: ${progress.confirmed} confirmed, ${progress.failed} failed, ${progress.cancelled} cancelled, ${progress.running} running, ${progress.pending} pending of ${progress.total}`;
      if (line !== last) out(line);
      last = line;
      if (progress.done) break;
    }
    await sleep(1000);
  }
  if (progress === undefined || !progress.done) {
    out(`✗ batch did not finish before the deadline (follow it again: npm run book -- --attach ${batchId})`);
    return false;
  }
  if (progress.atomic === true) {
    out(`  batch ${batchId}: ${progress.status}${progress.skipped ? `, ${progress.skipped} not started` : ''}`);
  }
  const results: boolean[] = [];
  for (const [i, b] of progress.bookings.entries()) {
    const job = jobs[i] ?? { label: b.id, intent: undefined };
    job.id = b.id;
    const v = await http(o, 'GET', `${o.apiUrl}/bookings/${encodeURIComponent(b.id)}`);
    results.push(outcome(job, v.status === 200 ? (v.json as unknown as View) : undefined));
  }
  return results.length === (jobs.length > 0 ? jobs.length : progress.total) && results.every(Boolean);
}

async function main(): Promise<number> {
  let o: Options;
  try {
    o = parseCommandLine(process.argv.slice(2));
  } catch (err) {
    if (err instanceof Help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (!(err instanceof Usage)) throw err;
    if (err.message) process.stderr.write(`book: ${err.message}\n`);
    process.stderr.write(USAGE);
    return 2;
  }
  const jobs = loadJobs(o.files, new Date());
  try {
    await fetch(`${o.apiUrl}/health`);
  } catch {
    process.stderr.write(`book: the API does not answer at ${o.apiUrl} (start it with npm start, or set API_URL)\n`);
    return 2;
  }
  const ok =
    o.attach !== undefined
      ? await followBatch(o.attach, [], o)
      : o.batch
        ? await runBatch(jobs, o)
        : await runSingly(jobs, o);
  return ok ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`book: ${(err as Error).message}\n`);
      process.exit(2);
    },
  );
}
