/**
 * `npm run bench -- open`: many open bookings cost little (issue 26). Serviceable bookings stay
 * open after CONFIRMED until their last flight has departed (workflow option `servicing`,
 * workflows/booking.servicing.ts); this bench opens many and measures what they cost while
 * nothing happens. Four processes, as in `bench/saga.bench.ts`: the Temporal server (by default
 * the CLI's dev server, persisting to a SQLite file so that its size on disk can be measured; or
 * the real server on PostgreSQL, OPEN_BENCH_SERVER below), the airline app and the booking worker
 * (`createBookingWorker`), each in a child process of its own (`bench/saga-child.ts`), and this
 * one (Temporal client, driver).
 *
 * Bookings are started as the API's `POST /bookings` starts them (BookingService.create: the
 * deployment's workflow defaults with `servicing`, the airline's route, priority, memo, search
 * attributes, UI summary), card payment, departures 60-300 days ahead, at most
 * OPEN_BENCH_CONCURRENCY (default 20) not yet CONFIRMED at a time, counted through the
 * BookingStatus search attribute. For each size of OPEN_BENCH_SIZES (default `500,5000`, ascending;
 * each size is reached by opening the difference) it prints the time it took to open them, then,
 * once no task has completed for OPEN_BENCH_SETTLE_S (default 5) s:
 *
 * - the database over its size before the first booking, per open booking, and the same by table:
 *   the SQLite file (with its -wal, -shm, -journal; dbstat on a copy), or on PostgreSQL the two
 *   Temporal databases, persistence and visibility (pg_database_size; pg_total_relation_size);
 * - the worker's RSS, V8 heap and cached workflows (its `maxCachedWorkflows`), the server's PSS;
 * - server + worker CPU over a quiet interval of OPEN_BENCH_QUIET_S (default 60) s, the last of
 *   OPEN_BENCH_QUIET_ROUNDS (default 3) back to back (each printed), with the
 *   workflow and activity tasks the server saw meanwhile (scheduled order reads among them).
 *   The server's CPU is that of its processes and their descendants (/proc): the dev server, or
 *   the Temporal server plus PostgreSQL (postmaster and backends), each also printed apart. The
 *   same interval is measured once before the first booking, with none open: what the server
 *   and the worker spend whatever the number of bookings.
 *
 * Then the three figures: `database per open booking` (largest size, target <= 50 KB), `worker
 * memory at <largest> / at <smallest>` (target <= 1.2) and `idle CPU per open booking per hour`
 * (largest size, above the interval with none open, target < 1 ms); the history of a booking by
 * event type; and what the scheduled order reads cost (the product reads every order every 24 h,
 * every 6 h within 7 days of departure, so none falls in the interval): OPEN_BENCH_READ_SAMPLE
 * (default 50; 0 skips) more bookings read their order every OPEN_BENCH_READ_EVERY_MS (default
 * 15000) ms during one more interval; CPU per read above idle, and at the product's schedule per
 * open booking per hour.
 *
 * Levers:
 * - OPEN_BENCH_SERVER (default `dev`): `dev` is the Temporal CLI's dev server on SQLite, with the
 *   tests' dynamic config; `postgres` is the real Temporal server (TEMPORAL_SERVER_VERSION) on a
 *   throw-away PostgreSQL, configured as deployed (scripts/topology/), its binaries found as the
 *   topology tests find them: TEMPORAL_SERVER_BIN and TEMPORAL_SQL_TOOL, else `.tools/` (built
 *   with Go on first use), PostgreSQL's from PG_BIN_DIR or /usr/lib/postgresql
 *   (bench/open-servers.ts). The lines name the server and database the figures come from.
 * - OPEN_BENCH_MAX_CACHED: the worker's maxCachedWorkflows (WORKER_MAX_CACHED_WORKFLOWS in the
 *   product); default 400, below the smallest size, so that both sizes run with a full cache and
 *   the ratio shows whether memory grows with the open bookings or stays bounded by the cache;
 *   `default`: the SDK's, from the heap limit.
 * - OPEN_BENCH_RPS (default 1000): the airline's rate limit in the worker, so that opening is
 *   bound by CPU; the reads take 0.1 of it.
 *
 * 1 KB = 1024 bytes.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import type { Client, WorkflowStartOptions } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { bookingWorkflowDefaults } from '../src/booking/booking.config';
import { BOOKING_WORKFLOW, type AirlineRoute, type BookingIntent } from '../src/booking/booking.model';
import { bookingPriority, loadBookingPriorities, type BookingPriorities } from '../src/booking/booking.priority';
import { bookingStaticDetails, bookingSummary } from '../src/booking/booking.summary';
import { airlineRoute } from '../src/ndc-client/airline-profile';
import { createTemporalClient, loadTemporalConfig } from '../src/temporal';
import { EncryptionCodec, loadPayloadKey } from '../src/temporal/payload-codec';
import { returnUrls } from '../src/api/bookings/authentication-return';
import { bookingWorkflowId } from '../src/api/bookings/booking.service';
import { FINGERPRINT_MEMO, fingerprint } from '../src/api/common/intake';
import type { BookingWorkflow } from '../src/api/common/workflow-contract';
import { embeddedProfile } from '../test/airline/airline-harness';
import {
  benchAirlineConfig,
  childStats,
  startChild,
  stopChild,
  workerCache,
  type ChildStats,
  type WorkerCache,
  type WorkerChildOptions,
} from './saga-child';
import { cpuMs, envInt, intents, loadAvg, payloadsIn } from './saga.bench';
import {
  benchServerKind,
  startBenchTemporal,
  treeStats,
  type BenchServerKind,
  type BenchTemporal,
  type TreeStats,
} from './open-servers';

const out = (line: string) => process.stdout.write(`open:      ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const KB = 1024;
const MB = 1024 * 1024;
const HOUR_MS = 3_600_000;

/** First departure, in days from today, and how many days the departures spread over (60-300). */
const FIRST_DAY = 60;
const SPREAD_DAYS = 241;

/** The worker's workflow cache unless OPEN_BENCH_MAX_CACHED says otherwise (the file's comment). */
const DEFAULT_MAX_CACHED = 400;

/** The settings of a run, from the environment (see the file's comment). */
interface OpenSettings {
  server: BenchServerKind;
  sizes: number[];
  concurrency: number;
  quietS: number;
  quietRounds: number;
  settleS: number;
  readSample: number;
  readEveryMs: number;
  rps: number;
  maxCached?: number;
}

function settings(): OpenSettings {
  const raw = process.env.OPEN_BENCH_SIZES ?? '';
  const sizes = (raw === '' ? '500,5000' : raw).split(',').map((s) => Number(s.trim()));
  if (sizes.some((n, i) => !Number.isInteger(n) || n < 1 || (i > 0 && n <= sizes[i - 1]!)))
    throw new Error(`OPEN_BENCH_SIZES: expected ascending whole numbers >= 1 such as 500,5000, got "${raw}"`);
  const cached = process.env.OPEN_BENCH_MAX_CACHED ?? '';
  return {
    server: benchServerKind(),
    sizes,
    concurrency: envInt('OPEN_BENCH_CONCURRENCY', 20),
    quietS: envInt('OPEN_BENCH_QUIET_S', 60),
    quietRounds: envInt('OPEN_BENCH_QUIET_ROUNDS', 3),
    settleS: envInt('OPEN_BENCH_SETTLE_S', 5),
    readSample: envInt('OPEN_BENCH_READ_SAMPLE', 50, 0),
    readEveryMs: envInt('OPEN_BENCH_READ_EVERY_MS', 15_000),
    rps: envInt('OPEN_BENCH_RPS', 1000),
    ...(cached === 'default' ? {} : { maxCached: envInt('OPEN_BENCH_MAX_CACHED', DEFAULT_MAX_CACHED, 2) }),
  };
}

// ------------------------------------------------------------------ the processes

/** The processes of a run and what the driver needs of them. */
interface Stack {
  /** The Temporal server (OPEN_BENCH_SERVER), its files in {@link dir}. */
  temporal: BenchTemporal;
  dir: string;
  airline: ChildProcess;
  worker: ChildProcess;
  client: Client;
  taskQueue: string;
  /** The embedded airline's route, as the API passes it. */
  route: AirlineRoute;
  priorities: BookingPriorities;
  /** The API's 3-D Secure return key (random here: only the URLs' size matters). */
  returnKey: Buffer;
}

async function startStack(s: OpenSettings): Promise<Stack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'open-bench-'));
  const temporal = await startBenchTemporal(s.server, dir);
  try {
    return await startApps(s, temporal, dir);
  } catch (error) {
    await temporal.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The airline, the worker and the client, on `temporal`. */
async function startApps(s: OpenSettings, temporal: BenchTemporal, dir: string): Promise<Stack> {
  const airline = await startChild<{ port: number }>(['--airline']);
  const url = `http://127.0.0.1:${airline.first.port}`;
  const route = airlineRoute(embeddedProfile({ config: benchAirlineConfig(), url }));
  const taskQueue = `bench-open-${randomUUID().slice(0, 8)}`;
  const worker = await startChild<{ ready: boolean }>([
    '--worker',
    JSON.stringify({
      address: temporal.address,
      namespace: temporal.namespace,
      taskQueue,
      airlines: [{ code: route.code, url, rateLimitRps: s.rps }],
      rateLimitRps: s.rps,
      ...(s.maxCached !== undefined ? { maxCachedWorkflows: s.maxCached } : {}),
    } satisfies WorkerChildOptions),
  ]);
  const client = await createTemporalClient({
    config: loadTemporalConfig({ TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace }),
  });
  return {
    temporal,
    dir,
    airline: airline.child,
    worker: worker.child,
    client,
    taskQueue,
    route,
    priorities: loadBookingPriorities(),
    returnKey: randomBytes(32),
  };
}

async function stopStack(stack: Stack): Promise<void> {
  await stopChild(stack.worker);
  await stack.client.connection.close();
  await stopChild(stack.airline);
  await stack.temporal.stop();
  fs.rmSync(stack.dir, { recursive: true, force: true });
}

// ------------------------------------------------------------------ opening bookings

/** The start of one booking as BookingService.create (src/api/bookings) makes it, on `route`. */
function apiStart(stack: Stack, intent: BookingIntent, route: AirlineRoute): WorkflowStartOptions<BookingWorkflow> {
  const workflowId = bookingWorkflowId(intent.agency.id, randomUUID());
  return {
    workflowId,
    taskQueue: stack.taskQueue,
    args: [
      intent,
      {
        ...bookingWorkflowDefaults({}),
        airlines: [route],
        correlationId: randomUUID(),
        authenticationReturn: returnUrls('http://localhost:3000', stack.returnKey, workflowId),
      },
    ],
    workflowIdConflictPolicy: 'FAIL',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    priority: bookingPriority('interactive', intent.agency.id, stack.priorities),
    memo: { [FINGERPRINT_MEMO]: fingerprint(intent) },
    searchAttributes: {
      BookingStatus: ['RUNNING'],
      AgencyId: [intent.agency.id],
      Route: [`${intent.journey.origin}-${intent.journey.destination}`],
    },
    staticSummary: bookingSummary(intent),
    staticDetails: bookingStaticDetails(intent),
  };
}

/** Statuses a booking of this bench must never stay in (it would never confirm). */
const STUCK = ['AWAITING_APPROVAL', 'AWAITING_SEAT_SELECTION', 'AWAITING_AUTHENTICATION', 'ESCALATED', 'HELD'];

async function countConfirmed(stack: Stack): Promise<number> {
  const query = `TaskQueue = '${stack.taskQueue}' AND BookingStatus = 'CONFIRMED'`;
  return (await stack.client.workflow.count(query)).count;
}

/** Throws, naming a few, when a booking of the run has closed or waits for someone. */
async function failIfStuck(stack: Stack): Promise<void> {
  const statuses = STUCK.map((status) => `'${status}'`).join(', ');
  const query = `TaskQueue = '${stack.taskQueue}' AND (ExecutionStatus != 'Running' OR BookingStatus IN (${statuses}))`;
  if ((await stack.client.workflow.count(query)).count === 0) return;
  const seen: string[] = [];
  for await (const wf of stack.client.workflow.list({ query, pageSize: 5 })) {
    seen.push(`${wf.workflowId} ${wf.status.name} ${String(wf.searchAttributes.BookingStatus?.[0])}`);
    if (seen.length === 5) break;
  }
  throw new Error(`open bench: bookings that will not confirm: ${seen.join('; ')}`);
}

/** How often the confirmed bookings are counted while opening, and how many counts between two checks for stuck ones. */
const POLL_MS = 500;
const STUCK_CHECK_EVERY = 10;

/**
 * Starts a booking per intent, at most `concurrency` not yet CONFIRMED at a time, until
 * `target` bookings of the run are CONFIRMED; resolves with the ids started.
 */
async function openBookings(
  stack: Stack,
  o: { intents: BookingIntent[]; route: AirlineRoute; concurrency: number; target: number },
): Promise<string[]> {
  const ids: string[] = [];
  const before = o.target - o.intents.length;
  for (let poll = 0, confirmed = await countConfirmed(stack); confirmed < o.target; poll += 1) {
    if (poll % STUCK_CHECK_EVERY === STUCK_CHECK_EVERY - 1) await failIfStuck(stack);
    const room = Math.min(o.concurrency - (before + ids.length - confirmed), o.intents.length - ids.length);
    const starting = o.intents.slice(ids.length, ids.length + Math.max(room, 0));
    await Promise.all(
      starting.map(async (intent) => {
        const start = apiStart(stack, intent, o.route);
        ids.push(start.workflowId);
        await stack.client.workflow.start<BookingWorkflow>(BOOKING_WORKFLOW, start);
      }),
    );
    await sleep(POLL_MS);
    confirmed = await countConfirmed(stack);
  }
  return ids;
}

// ------------------------------------------------------------------ measuring

/** Requests the server's frontend served, by operation (its `service_requests` counter). */
type ServerCounters = Record<string, number>;

async function serverCounters(stack: Stack): Promise<ServerCounters> {
  const text = await (await fetch(stack.temporal.metricsUrl)).text();
  const counters: ServerCounters = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('service_requests{') || !line.includes('service_name="frontend"')) continue;
    const operation = /operation="([^"]+)"/.exec(line)?.[1];
    if (operation !== undefined) counters[operation] = (counters[operation] ?? 0) + Number(line.split(' ').pop());
  }
  return counters;
}

const delta = (a: ServerCounters, b: ServerCounters, operation: string) => (b[operation] ?? 0) - (a[operation] ?? 0);

/** Everything measured at one moment. */
interface Snapshot {
  atMs: number;
  /** The server's processes (its {@link BenchTemporal.processes}, in order). */
  server: TreeStats[];
  serverCpuMs: number;
  serverPssMb: number;
  worker: ChildStats;
  airline: ChildStats;
  cache: WorkerCache;
  counters: ServerCounters;
  dbBytes: number;
}

async function snapshot(stack: Stack): Promise<Snapshot> {
  const server = treeStats(stack.temporal.processes);
  const [worker, airline, cache, counters, dbBytes] = await Promise.all([
    childStats(stack.worker),
    childStats(stack.airline),
    workerCache(stack.worker),
    serverCounters(stack),
    stack.temporal.dbBytes(),
  ]);
  return {
    atMs: performance.now(),
    server,
    serverCpuMs: server.reduce((sum, p) => sum + p.cpuMs, 0),
    serverPssMb: server.reduce((sum, p) => sum + p.pssMb, 0),
    worker,
    airline,
    cache,
    counters,
    dbBytes,
  };
}

/** Waits until no workflow or activity task has completed for `seconds` in a row. */
async function settle(stack: Stack, seconds: number): Promise<void> {
  const tasks = (c: ServerCounters) => (c.RespondWorkflowTaskCompleted ?? 0) + (c.RespondActivityTaskCompleted ?? 0);
  for (let before = tasks(await serverCounters(stack)); ;) {
    await sleep(seconds * 1000);
    const now = tasks(await serverCounters(stack));
    if (now === before) return;
    before = now;
  }
}

/** What a quiet interval cost and what happened in it. */
interface Quiet {
  seconds: number;
  serverMs: number;
  /** The same by server process (see {@link byProcess}). */
  serverByProcess: number[];
  workerMs: number;
  airlineMs: number;
  workflowTasks: number;
  activityTasks: number;
  polls: number;
  /** Snapshot at its end. */
  end: Snapshot;
}

async function quietInterval(stack: Stack, seconds: number): Promise<Quiet> {
  const a = await snapshot(stack);
  await sleep(seconds * 1000);
  const b = await snapshot(stack);
  return {
    seconds: (b.atMs - a.atMs) / 1000,
    serverMs: b.serverCpuMs - a.serverCpuMs,
    serverByProcess: b.server.map((p, i) => p.cpuMs - a.server[i]!.cpuMs),
    workerMs: cpuMs(a.worker, b.worker),
    airlineMs: cpuMs(a.airline, b.airline),
    workflowTasks: delta(a.counters, b.counters, 'RespondWorkflowTaskCompleted'),
    activityTasks: delta(a.counters, b.counters, 'RespondActivityTaskCompleted'),
    polls:
      delta(a.counters, b.counters, 'PollWorkflowTaskQueue') + delta(a.counters, b.counters, 'PollActivityTaskQueue'),
    end: b,
  };
}

/** Server + worker CPU of `quiet`, per hour, ms. */
const perHour = (quiet: Quiet) => ((quiet.serverMs + quiet.workerMs) * 3600) / quiet.seconds;

/**
 * `values` by server process, when the server has more than one (the real server and
 * PostgreSQL): ` (Temporal server 120 ms, PostgreSQL 30 ms)`; nothing for the dev server.
 */
function byProcess(stack: Stack, values: number[], unit: string, digits = 0): string {
  const { processes } = stack.temporal;
  if (processes.length < 2) return '';
  return ` (${processes.map((p, i) => `${p.name} ${values[i]!.toFixed(digits)} ${unit}`).join(', ')})`;
}

// ------------------------------------------------------------------ one size

/** The figures at one size. */
interface AtSize {
  open: number;
  quiet: Quiet;
  tables: Map<string, number>;
}

/** Opens bookings up to `size`, then measures the database, the worker's memory and a quiet interval. */
async function measureSize(
  stack: Stack,
  s: OpenSettings,
  o: { size: number; opened: number; all: BookingIntent[]; base: Snapshot; baseTables: Map<string, number> },
): Promise<AtSize & { ids: string[] }> {
  const a = await snapshot(stack);
  const ids = await openBookings(stack, {
    intents: o.all.slice(o.opened, o.size),
    route: stack.route,
    concurrency: s.concurrency,
    target: o.size,
  });
  const b = await snapshot(stack);
  const n = o.size - o.opened;
  const wallS = (b.atMs - a.atMs) / 1000;
  const server = byProcess(
    stack,
    b.server.map((p, i) => (p.cpuMs - a.server[i]!.cpuMs) / n),
    'ms',
    1,
  );
  out(
    `opened ${n} bookings (${o.size} open) in ${wallS.toFixed(1)} s = ${(n / wallS).toFixed(2)} bookings/s at concurrency ${s.concurrency}; ` +
      `CPU per booking opened: server ${((b.serverCpuMs - a.serverCpuMs) / n).toFixed(1)} ms${server}, worker ${(cpuMs(a.worker, b.worker) / n).toFixed(1)} ms, airline ${(cpuMs(a.airline, b.airline) / n).toFixed(1)} ms (load average ${loadAvg()})`,
  );
  await settle(stack, s.settleS);
  const quiet = await quietRounds(stack, s, o.size);
  const tables = await stack.temporal.dbTables();
  report(stack, { open: o.size, quiet, tables }, o.base, o.baseTables);
  return { open: o.size, quiet, tables, ids };
}

/**
 * `s.quietRounds` quiet intervals back to back, every one but the last printed here; the last is
 * the figure (the first after a burst of work may still hold its clean-up: garbage collection,
 * the server's background tasks).
 */
async function quietRounds(stack: Stack, s: OpenSettings, open: number): Promise<Quiet> {
  for (let round = 1; round < s.quietRounds; round += 1)
    reportQuiet(stack, open, await quietInterval(stack, s.quietS), `(round ${round} of ${s.quietRounds}) `);
  return quietInterval(stack, s.quietS);
}

/** The lines of one size: database, memory, quiet interval. */
function report(stack: Stack, at: AtSize, base: Snapshot, baseTables: Map<string, number>): void {
  const { end } = at.quiet;
  const grown = end.dbBytes - base.dbBytes;
  const byTable = [...at.tables]
    .map(([table, bytes]) => [table, (bytes - (baseTables.get(table) ?? 0)) / at.open] as const)
    .filter(([, perBooking]) => Math.abs(perBooking) >= 0.05 * KB)
    .sort((x, y) => y[1] - x[1])
    .map(([table, perBooking]) => `${table} ${(perBooking / KB).toFixed(1)} KB`);
  out(
    `at ${at.open}: database ${(end.dbBytes / MB).toFixed(1)} MB, +${(grown / MB).toFixed(1)} MB since the first booking = ${(grown / at.open / KB).toFixed(1)} KB per open booking; by table: ${byTable.join(', ')}`,
  );
  out(
    `at ${at.open}: worker RSS ${(end.worker.rss / MB).toFixed(0)} MB, V8 heap ${(end.worker.heapUsed / MB).toFixed(0)} MB, ${end.cache.cached} workflows cached (maxCachedWorkflows ${end.cache.max}); ` +
      `server PSS ${end.serverPssMb.toFixed(0)} MB${byProcess(
        stack,
        end.server.map((p) => p.pssMb),
        'MB',
      )}`,
  );
  reportQuiet(stack, at.open, at.quiet);
}

/** The line of a quiet interval with `open` bookings open. */
function reportQuiet(stack: Stack, open: number, q: Quiet, round = ''): void {
  const each = open === 0 ? '' : `, ${(perHour(q) / open).toFixed(2)} ms per open booking all in`;
  out(
    `at ${open}: quiet ${round}${q.seconds.toFixed(1)} s: CPU server ${q.serverMs.toFixed(0)} ms${byProcess(stack, q.serverByProcess, 'ms')}, worker ${q.workerMs.toFixed(0)} ms, airline ${q.airlineMs.toFixed(0)} ms; ` +
      `meanwhile the server completed ${q.workflowTasks} workflow tasks and ${q.activityTasks} activity tasks (scheduled order reads among them) and took ${q.polls} task polls; ` +
      `server + worker ${perHour(q).toFixed(0)} ms per hour${each} (load average ${loadAvg()})`,
  );
}

// ------------------------------------------------------------------ the history of a booking

/**
 * The histories of `ids`, mean per booking: events, encoded bytes by event type, and their
 * payloads as stored (encrypted), decrypted, and decrypted then deflated (what a compressing codec
 * would store, before its encryption overhead).
 */
async function historyProfile(client: Client, ids: string[]): Promise<void> {
  const EventType = temporal.api.enums.v1.EventType;
  const byType = new Map<string, number>();
  const payloads = { stored: 0, plain: 0, deflated: 0 };
  let events = 0;
  let bytes = 0;
  for (const id of ids) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    for (const event of history.events ?? []) {
      const size = temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      const type = (EventType[event.eventType as number] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');
      byType.set(type, (byType.get(type) ?? 0) + size);
      events += 1;
      bytes += size;
    }
    const sizes = await payloadSizes(payloadsIn(history.events));
    payloads.stored += sizes.stored;
    payloads.plain += sizes.plain;
    payloads.deflated += sizes.deflated;
  }
  const kb = (n: number) => `${(n / ids.length / KB).toFixed(1)} KB`;
  const top = [...byType]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 5)
    .map(([type, size]) => `${type} ${kb(size)}`);
  out(
    `history of an open booking (mean of ${ids.length}): ${(events / ids.length).toFixed(1)} events, ${kb(bytes)} encoded; largest: ${top.join(', ')}`,
  );
  out(
    `history of an open booking: payloads ${kb(payloads.stored)} as stored (encrypted), ${kb(payloads.plain)} decrypted, ${kb(payloads.deflated)} decrypted and deflated`,
  );
}

/** Bytes of `payloads` as stored, decrypted (the product's codec and key), and decrypted then deflated. */
async function payloadSizes(payloads: Payload[]): Promise<{ stored: number; plain: number; deflated: number }> {
  const codec = new EncryptionCodec(loadPayloadKey());
  const { Payload: Proto } = temporal.api.common.v1;
  const plain = await codec.decode(payloads);
  const size = (list: Payload[], f: (bytes: Uint8Array) => number = (b) => b.length) =>
    list.reduce((sum, p) => sum + f(Proto.encode(p).finish()), 0);
  return { stored: size(payloads), plain: size(plain), deflated: size(plain, (b) => deflateRawSync(b).length) };
}

// ------------------------------------------------------------------ scheduled order reads

/**
 * What a scheduled order read costs: `sample` more bookings reading their order every `everyMs`
 * during a quiet interval as long as `idle`'s, CPU above `idle` per read (retrieveOrder activities
 * completed in their histories during the interval).
 */
async function measureReads(
  stack: Stack,
  s: OpenSettings,
  o: { idle: Quiet; open: number; all: BookingIntent[] },
): Promise<void> {
  const route: AirlineRoute = { ...stack.route, orderReads: { ...stack.route.orderReads, everyMs: s.readEveryMs } };
  const ids = await openBookings(stack, {
    intents: o.all.slice(o.open, o.open + s.readSample),
    route,
    concurrency: s.concurrency,
    target: o.open + s.readSample,
  });
  const from = Date.now();
  const q = await quietInterval(stack, o.idle.seconds);
  const reads = await readsBetween(stack.client, ids, from, Date.now());
  const scale = q.seconds / o.idle.seconds;
  const extra = q.serverMs + q.workerMs - (o.idle.serverMs + o.idle.workerMs) * scale;
  const airline = q.airlineMs - o.idle.airlineMs * scale;
  out(
    `reads: ${s.readSample} more bookings reading their order every ${s.readEveryMs} ms: ${reads} reads in ${q.seconds.toFixed(1)} s ` +
      `(${q.activityTasks} activity tasks, permit + read); CPU server ${q.serverMs.toFixed(0)} ms${byProcess(stack, q.serverByProcess, 'ms')}, worker ${q.workerMs.toFixed(0)} ms, airline ${q.airlineMs.toFixed(0)} ms`,
  );
  if (reads === 0) {
    out(
      'reads: no read completed in the interval: no cost per read (a longer OPEN_BENCH_QUIET_S or a shorter OPEN_BENCH_READ_EVERY_MS)',
    );
    return;
  }
  const perRead = extra / reads;
  out(
    `reads: per scheduled order read, above idle: server + worker ${perRead.toFixed(1)} ms CPU (airline ${(airline / reads).toFixed(1)} ms); ` +
      `at the product's schedule (every 24 h; every 6 h within 7 days of departure) = ${((perRead * HOUR_MS) / (24 * HOUR_MS)).toFixed(2)} ms ` +
      `(${((perRead * HOUR_MS) / (6 * HOUR_MS)).toFixed(2)} ms near departure) per open booking per hour, on top of the idle figure`,
  );
}

/** retrieveOrder activities completed in the histories of `ids` between `from` and `to` (epoch ms). */
async function readsBetween(client: Client, ids: string[], from: number, to: number): Promise<number> {
  const EventType = temporal.api.enums.v1.EventType;
  let reads = 0;
  for (const id of ids) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const retrieves = new Set<string>();
    for (const event of history.events ?? []) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name === 'retrieveOrder') retrieves.add(String(event.eventId));
      if (event.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) continue;
      const at = Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;
      const of = String(event.activityTaskCompletedEventAttributes?.scheduledEventId);
      if (retrieves.has(of) && at >= from && at <= to) reads += 1;
    }
  }
  return reads;
}

// ------------------------------------------------------------------ the run

/**
 * The three figures, from the smallest and the largest size; idle CPU above `none` (the same
 * interval before the first booking).
 */
function summary(stack: Stack, sizes: AtSize[], none: Quiet, base: Snapshot): void {
  const first = sizes[0]!;
  const last = sizes[sizes.length - 1]!;
  const perBookingKb = (last.quiet.end.dbBytes - base.dbBytes) / last.open / KB;
  out(
    `database per open booking = ${perBookingKb.toFixed(1)} KB (target <= 50 KB; at ${last.open}, ${stack.temporal.label})`,
  );
  const memory = last.quiet.end.worker.rss / first.quiet.end.worker.rss;
  out(
    `worker memory at ${last.open} / at ${first.open} = ${memory.toFixed(2)} (target <= 1.2; maxCachedWorkflows ${last.quiet.end.cache.max})`,
  );
  const idle = (perHour(last.quiet) - perHour(none)) / last.open;
  out(
    `idle CPU per open booking per hour = ${idle.toFixed(2)} ms (target < 1 ms; server + worker at ${last.open} above the same with none open)`,
  );
  const hours = [['none', none] as const, ...sizes.map((at) => [String(at.open), at.quiet] as const)];
  out(
    `idle CPU per hour, server + worker: ${hours.map(([open, q]) => `${perHour(q).toFixed(0)} ms with ${open} open`).join(', ')}`,
  );
}

export async function run(): Promise<void> {
  const s = settings();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stack = await startStack(s);
  try {
    const largest = s.sizes[s.sizes.length - 1]!;
    const all = intents(largest + s.readSample, FIRST_DAY, SPREAD_DAYS);
    await settle(stack, s.settleS);
    const base = await snapshot(stack);
    const baseTables = await stack.temporal.dbTables();
    out(
      `${stack.temporal.description}; sizes ${s.sizes.join(', ')}, ` +
        `concurrency ${s.concurrency}, quiet ${s.quietS} s, worker maxCachedWorkflows ${base.cache.max}${s.maxCached === undefined ? " (the SDK's default)" : ''}; ` +
        `before the first booking: database ${(base.dbBytes / MB).toFixed(1)} MB, worker RSS ${(base.worker.rss / MB).toFixed(0)} MB; load average ${loadAvg()}`,
    );
    const none = await quietRounds(stack, s, 0);
    reportQuiet(stack, 0, none);
    const sizes: AtSize[] = [];
    let sample: string[] = [];
    for (const size of s.sizes) {
      const opened = sizes.length === 0 ? 0 : sizes[sizes.length - 1]!.open;
      const at = await measureSize(stack, s, { size, opened, all, base, baseTables });
      if (sample.length === 0) sample = at.ids.slice(0, 10);
      sizes.push(at);
    }
    summary(stack, sizes, none, base);
    await historyProfile(stack.client, sample);
    if (s.readSample > 0) await measureReads(stack, s, { idle: sizes[sizes.length - 1]!.quiet, open: largest, all });
  } finally {
    await stopStack(stack);
  }
}
