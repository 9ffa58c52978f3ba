/**
 * `npm run bench -- saga`: where a booking's cost goes (issue 13). Four processes: the Temporal
 * dev server (in memory, from the CLI), the airline app and the booking worker, each in a child
 * process of its own (`bench/saga-child.ts`), and this one (Temporal client, API, driver), so
 * that each CPU figure is that process's alone. In one run it prints:
 *
 * - sequential: SAGA_BENCH_SEQ_N (default 10) bookings one at a time: p50, p99, the mean gaps
 *   between history events (dispatch and execution of workflow tasks and activities), history
 *   events and payloads per booking, and the payload codec's CPU per booking (decrypt + encrypt
 *   of every payload of one booking's history, timed here);
 * - temporal / cpu: SAGA_BENCH_N (default 40) bookings at SAGA_BENCH_CONCURRENCY (default 8):
 *   bookings/s, p50, p99, and CPU per booking of the server (utime + stime from /proc/<pid>/stat),
 *   the worker and the airline (their `process.cpuUsage()`);
 * - memory: worker RSS with SAGA_BENCH_OPEN (default 50; 1000 for the issue's figure) bookings
 *   waiting at the price guard (maxTotal 1.00), counted through the BookingStatus search attribute;
 * - intake: SAGA_BENCH_INTAKE (default 200) intents through the API's `POST /bookings` (agency API
 *   key, rate limit off) from SAGA_BENCH_INTAKE_CALLERS (default 50) callers, the worker running;
 * - floor / ratio: Temporal's floor in the same run on the same server: N bare workflows of six
 *   no-op activities (`bench/floor.workflow.ts`, 2 KB payload, default data converter) at the same
 *   concurrency on a bare worker process; its server + worker CPU and history events per
 *   workflow, and `cpu ratio booking / floor` (target <= 1.30), the figure to steer by;
 * - direct / overhead: the same N bookings without Temporal (the activity code in sequence);
 * - priority: SAGA_BENCH_PRIORITY_SAMPLES (default 10) single interactive bookings, one at a time,
 *   on an idle worker with the product's airline rate limit (SAGA_BENCH_PRIORITY_RPS, default 20/s),
 *   then again while a `batchWorkflow` of SAGA_BENCH_PRIORITY_BATCH (default 1000; 0 skips this
 *   part) children, all started at once, is queued behind that limit: p50 and p99 of both and the
 *   ratio (target <= 2x). Priority keys and fairness key as the API sets them
 *   (src/booking/booking.priority.ts, BOOKING_PRIORITY_* honoured); SAGA_BENCH_PRIORITY=off starts
 *   the interactive bookings with the batch's key instead (the figure without precedence).
 *
 * - burst: on a worker at the product's airline limit (SAGA_BENCH_PRIORITY_RPS, default 20/s),
 *   SAGA_BENCH_BURST (default 200; 0 skips) interactive intents submitted at once to one airline:
 *   the median submit -> confirmed latency over the time from the first submit to the last
 *   confirmation (arrival order about 0.5, lockstep about 1.0; target <= 0.6), and the first
 *   confirmation as a multiple of the idle one-booking latency (target <= 3); once on the routed
 *   path (the airline's queue, the first shop one priority key below the booking's, see
 *   workflows/booking/airlines.ts `activitiesAt`) and once on the legacy path (no `airlines`:
 *   every activity on the workflows' queue at the booking's own key), so the effect of the
 *   per-step priorities shows in one run;
 * - quota: two embedded airlines (ZZ, YY) at that limit each, SAGA_BENCH_QUOTA (default 200; 0
 *   skips) interactive intents at once, half naming ZZ and half YY: bookings/s over the
 *   quota-bound bookings/s (sum of the limits / airline calls per booking; target >= 0.9).
 *
 * Every part starts its bookings as the API does since airline profiles: with workflow option
 * `airlines` (the embedded airline's route), so that their activities run on the airline's queue
 * `<queue>-airline-ZZ` at its rate limit with the per-step priorities; only the burst's legacy
 * run starts them without.
 *
 * SAGA_BENCH_ONLY=priority,burst,quota (any of them, comma separated) runs the warm-up and
 * those parts only.
 *
 * Worker levers (unset = the product's): SAGA_BENCH_MAX_CACHED (maxCachedWorkflows),
 * SAGA_BENCH_REUSE_V8 (0/1), SAGA_BENCH_BUNDLE (prebuilt bundle of scripts/bundle-workflows.ts),
 * SAGA_BENCH_TQ_LIMIT=off (no maxTaskQueueActivitiesPerSecond, i.e. eager activity dispatch on;
 * the workflows' queue only, so only for bookings without `airlines`: the airlines' queues keep
 * their limits), SAGA_BENCH_TRACING=1 (tracing on in the worker, spans dropped: the workflow span
 * interceptor), SAGA_BENCH_WORKER_RPS (maxActivitiesPerSecond per worker, workflows' queue
 * only), SAGA_BENCH_WFT_SLOTS
 * (maxConcurrentWorkflowTaskExecutions). SAGA_BENCH_RPS (default 1000) is
 * the airline's (and the workflows' queue's) activity limit of the main worker; SAGA_BENCH_SERVER_POLL_RPS (default 1000; 20 is the stock dev
 * server) the server's history.transferProcessorMaxPollRPS (see bench/README.md).
 * SAGA_BENCH_CHILD_NODE_FLAGS adds `node` flags to the worker and airline processes (profiles).
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { MockActivityEnvironment, TestWorkflowEnvironment } from '@temporalio/testing';
import { Client } from '@temporalio/client';
import type { Payload, Priority } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createBookingActivities } from '../activities/booking.activities';
import type { ChosenOffer } from '../activities/booking.activities.types';
import { resolveTemporalCli } from '../scripts/temporal-cli';
import {
  airlineTaskQueue,
  cardOf,
  BATCH_WORKFLOW,
  BOOKING_WORKFLOW,
  type AirlineRoute,
  type BatchInput,
  type BookingIntent,
  type BookingResult,
  type BookingWorkflowOptions,
} from '../src/booking/booking.model';
import { bookingPriority, loadBookingPriorities } from '../src/booking/booking.priority';
import { ndcContextOf } from '../src/booking/intent-to-ndc';
import { NdcHttpClient } from '../src/ndc-client';
import { airlineRoute } from '../src/ndc-client/airline-profile';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS, createTemporalClient, loadTemporalConfig } from '../src/temporal';
import { EncryptionCodec, loadPayloadKey } from '../src/temporal/payload-codec';
import { embeddedProfile } from '../test/airline/airline-harness';
import {
  benchAirlineConfig,
  childStats,
  runCallers,
  startChild,
  stopChild,
  type BenchAirline,
  type ChildStats,
  type FloorWorkerOptions,
  type WorkerChildOptions,
} from './saga-child';
import { oneWayIntent } from '../test/api/intent.fixture';
import { FLOOR_STEPS, floorWorkflow } from './floor.workflow';
import { selectOffers } from '../workflows/booking/offer-selection';
import { progressQuery } from '../workflows/definitions';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../scripts/temporal-dev-server';

/** The integer environment variable `name` (at least `min`), `fallback` when unset or empty. */
export function envInt(name: string, fallback: number, min = 1): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name}: must be an integer >= ${min}, got "${v}"`);
  return n;
}

/** SAGA_BENCH_SERVER_CONFIG: more dev server dynamic config, `KEY=JSON` pairs separated by spaces. */
function extraDynamicConfig(): Record<string, unknown> {
  const pairs = (process.env.SAGA_BENCH_SERVER_CONFIG ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`SAGA_BENCH_SERVER_CONFIG: expected KEY=VALUE, got "${pair}"`);
      return [pair.slice(0, at), JSON.parse(pair.slice(at + 1)) as unknown];
    }),
  );
}

const ONLY_PARTS = ['priority', 'burst', 'quota'] as const;
type OnlyPart = (typeof ONLY_PARTS)[number];

/** SAGA_BENCH_ONLY: the parts to run alone (after the warm-up); empty = all. */
function onlyParts(): Set<OnlyPart> {
  const names = (process.env.SAGA_BENCH_ONLY ?? '').split(',').map((name) => name.trim());
  const parts = new Set<OnlyPart>();
  for (const name of names.filter(Boolean)) {
    if (!(ONLY_PARTS as readonly string[]).includes(name))
      throw new Error(`SAGA_BENCH_ONLY: expected some of ${ONLY_PARTS.join(', ')}, got "${name}"`);
    parts.add(name as OnlyPart);
  }
  return parts;
}

/** `p`-th percentile (nearest rank) of `values`, in the same unit. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const ms = (n: number) => `${n.toFixed(0)} ms`;

const EventType = temporal.api.enums.v1.EventType;

/** The gaps between history events the bench reports, as [label, from event, to event]. */
const GAPS: ReadonlyArray<[string, number, number]> = [
  [
    'workflow task scheduled -> started (dispatch)',
    EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  ],
  [
    'workflow task started -> completed (worker)',
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  ],
  [
    'activity scheduled -> started (dispatch)',
    EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
  ],
  [
    'activity started -> completed (activity)',
    EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
  ],
];

/**
 * Mean gap (ms) and count per {@link GAPS} entry over the histories of `workflowIds`: for each
 * `to` event, the time since the latest `from` event before it.
 */
async function historyGaps(
  client: Client,
  workflowIds: string[],
): Promise<Array<{ label: string; meanMs: number; count: number }>> {
  const sums = GAPS.map(() => ({ total: 0, count: 0 }));
  for (const workflowId of workflowIds) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const last = new Map<number, number>();
    for (const event of history.events ?? []) {
      const type = event.eventType as number;
      const at = Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;
      GAPS.forEach(([, from, to], i) => {
        const since = last.get(from);
        if (type === to && since !== undefined) {
          sums[i]!.total += at - since;
          sums[i]!.count += 1;
        }
      });
      last.set(type, at);
    }
  }
  return GAPS.map(([label], i) => ({
    label,
    meanMs: sums[i]!.count > 0 ? sums[i]!.total / sums[i]!.count : 0,
    count: sums[i]!.count,
  }));
}

/**
 * N intents of agency BENCH on distinct dates (so the cheap buckets are not sold out): the i-th
 * departs `offsetDays + (i % spreadDays)` days from today (default spread 60); credit card (surcharge).
 */
export function intents(n: number, offsetDays: number, spreadDays = 60): BookingIntent[] {
  const now = new Date();
  return Array.from({ length: n }, (_, i) => {
    const intent = oneWayIntent({ agencyId: 'BENCH', now });
    const d = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offsetDays + (i % spreadDays)),
    );
    intent.journey.departureDate = d.toISOString().slice(0, 10);
    return intent;
  });
}

/** Terminates the workflows `ids`, `chunk` at a time; one already closed (or never started) is passed over. */
async function terminateAll(client: Client, ids: string[], chunk: number): Promise<void> {
  for (let i = 0; i < ids.length; i += chunk) {
    await Promise.all(
      ids.slice(i, i + chunk).map((id) =>
        client.workflow
          .getHandle(id)
          .terminate('bench done')
          .catch(() => undefined),
      ),
    );
  }
}

/** One booking without Temporal: the activity code in sequence, as the workflow orders it. */
async function directBooking(
  activities: ReturnType<typeof createBookingActivities>,
  intent: BookingIntent,
): Promise<string> {
  const env = new MockActivityEnvironment();
  const act = <I, O>(fn: (input: I) => Promise<O>, input: I): Promise<O> =>
    env.run(fn as never, input as never) as Promise<O>;
  const ctx = ndcContextOf(intent, `direct-${randomUUID()}`);
  const shop = await act(activities.shop, {
    ctx,
    origin: intent.journey.origin,
    destination: intent.journey.destination,
    departureDate: intent.journey.departureDate,
  });
  const [offer] = selectOffers(shop.offers, 1);
  if (offer === undefined) throw new Error('no offer');
  const chosen: ChosenOffer[] = [
    { offerId: offer.offerId, owner: offer.owner, responseId: shop.shoppingResponseId, offerItems: offer.offerItems },
  ];
  const first = await act(activities.price, { ctx, offers: chosen });
  const token = await act(activities.tokenise, { card: cardOf(intent)!, correlationId: ctx.correlationId });
  const priced = await act(activities.repriceWithToken, {
    ctx,
    offers: chosen,
    previous: first,
    tokenId: token.tokenId,
  });
  const created = await act(activities.createOrder, {
    ctx,
    priced,
    tokenId: token.tokenId,
    securePayment: intent.securePayment,
  });
  if (created.kind === 'challenge') throw new Error('the bench card asked for 3-D Secure');
  const retrieved = await act(activities.retrieveOrder, {
    ctx,
    orderId: created.order.orderId,
    owner: created.order.owner,
  });
  return retrieved.order.bookingReference;
}

/** Events per history, and the encoded payloads of the histories (for the codec timing). */
async function historyFacts(
  client: Client,
  workflowIds: string[],
): Promise<{ events: number[]; payloads: Payload[][] }> {
  const events: number[] = [];
  const payloads: Payload[][] = [];
  for (const workflowId of workflowIds) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    events.push(history.events?.length ?? 0);
    payloads.push(payloadsIn(history.events));
  }
  return { events, payloads };
}

/** Every payload in `value` (history events, or any part of them), as stored. */
export function payloadsIn(value: unknown): Payload[] {
  const found: Payload[] = [];
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return;
    const o = v as Record<string, unknown>;
    if (o.metadata !== undefined && o.data instanceof Uint8Array) {
      found.push(o as Payload);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(o)) walk(x);
  };
  walk(value);
  return found;
}

/** CPU time (user + system, ms) and RSS (MB) of a process other than ours, from /proc. */
export function procStats(pid: number): { cpuMs: number; rssMb: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime 15, rss (pages) 24.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { cpuMs: (ticks * 1000) / 100, rssMb: (Number(fields[21]) * 4096) / 1e6 };
}

/** The pid of the dev server listening on `port` (the CLI process started for this run). */
export function devServerPid(port: string): number {
  const cli = resolveTemporalCli().path;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const i = argv.indexOf('--port');
    if (path.basename(argv[0] ?? '') === path.basename(cli) && i >= 0 && argv[i + 1] === port) return Number(entry);
  }
  throw new Error(`no Temporal dev server process with --port ${port} in /proc`);
}

/** CPU (ms) a child spent between its stats `a` and `b`. */
export const cpuMs = (a: ChildStats, b: ChildStats) => (b.cpu.user - a.cpu.user + b.cpu.system - a.cpu.system) / 1000;
/** The 1-minute load average, one decimal. */
export const loadAvg = () => os.loadavg()[0]!.toFixed(1);

/** A bench's Temporal dev server (see {@link startBenchServer}). */
export interface BenchServer {
  address: string;
  namespace: string;
  /** The CLI process's pid (its CPU and RSS through {@link procStats}). */
  pid: number;
  /** Stops it (and forgets the SIGTERM handler). */
  teardown(): Promise<void>;
}

/**
 * The CLI's dev server as `startDevServer` runs it (DEV_SERVER_DYNAMIC_CONFIG, the booking search
 * attributes), plus `dynamicConfig`; in memory unless `dbFilename` (a SQLite file) is given;
 * `extraArgs` go to `temporal server start-dev` as they are. Until `teardown`, a SIGTERM to this
 * process stops the server too: the SDK's runtime keeps a process alive on SIGTERM (it only shuts
 * workers down, and a bench has none), and a bench killed (e.g. by the smoke test's timeout) must
 * leave no server behind; the child processes stop when their parent is gone.
 */
export async function startBenchServer(o: {
  dynamicConfig?: Record<string, unknown>;
  dbFilename?: string;
  extraArgs?: string[];
}): Promise<BenchServer> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: resolveTemporalCli().path },
      ip: '127.0.0.1',
      searchAttributes: [...BOOKING_SEARCH_ATTRIBUTE_KEYS],
      ...(o.dbFilename !== undefined ? { dbFilename: o.dbFilename } : {}),
      extraArgs: [
        ...Object.entries({ ...DEV_SERVER_DYNAMIC_CONFIG, ...o.dynamicConfig }).flatMap(([key, value]) => [
          '--dynamic-config-value',
          `${key}=${JSON.stringify(value)}`,
        ]),
        ...(o.extraArgs ?? []),
      ],
    },
  });
  const pid = devServerPid(env.address.split(':').pop()!);
  const onSigterm = () => {
    process.kill(pid, 'SIGTERM');
    process.exit(143);
  };
  process.once('SIGTERM', onSigterm);
  return {
    address: env.address,
    namespace: env.namespace ?? 'default',
    pid,
    teardown: async () => {
      await env.teardown();
      process.off('SIGTERM', onSigterm);
    },
  };
}

/** Lever settings of the worker child, from the environment (unset = the product's). */
function workerLevers(): Pick<
  WorkerChildOptions,
  | 'maxCachedWorkflows'
  | 'reuseV8Context'
  | 'workflowBundlePath'
  | 'taskQueueLimit'
  | 'workerActivitiesPerSecond'
  | 'workflowTaskSlots'
  | 'tracing'
> {
  const workerRps = process.env.SAGA_BENCH_WORKER_RPS;
  const wftSlots = process.env.SAGA_BENCH_WFT_SLOTS;
  const cached = process.env.SAGA_BENCH_MAX_CACHED;
  const reuse = process.env.SAGA_BENCH_REUSE_V8;
  const bundle = process.env.SAGA_BENCH_BUNDLE;
  return {
    ...(cached !== undefined && cached !== '' ? { maxCachedWorkflows: envInt('SAGA_BENCH_MAX_CACHED', 0) } : {}),
    ...(reuse === '0' || reuse === '1' ? { reuseV8Context: reuse === '1' } : {}),
    ...(bundle !== undefined && bundle !== '' ? { workflowBundlePath: bundle } : {}),
    ...(process.env.SAGA_BENCH_TQ_LIMIT === 'off' ? { taskQueueLimit: false } : {}),
    ...(process.env.SAGA_BENCH_TRACING === '1' ? { tracing: true } : {}),
    ...(workerRps !== undefined && workerRps !== ''
      ? { workerActivitiesPerSecond: envInt('SAGA_BENCH_WORKER_RPS', 0) }
      : {}),
    ...(wftSlots !== undefined && wftSlots !== '' ? { workflowTaskSlots: envInt('SAGA_BENCH_WFT_SLOTS', 0) } : {}),
  };
}

export async function run(): Promise<void> {
  const n = envInt('SAGA_BENCH_N', 40);
  const concurrency = envInt('SAGA_BENCH_CONCURRENCY', 8);
  const seqN = envInt('SAGA_BENCH_SEQ_N', 10);
  const open = envInt('SAGA_BENCH_OPEN', 50);
  const intake = envInt('SAGA_BENCH_INTAKE', 200);
  const callers = envInt('SAGA_BENCH_INTAKE_CALLERS', 50);
  const rps = envInt('SAGA_BENCH_RPS', 1000);
  const serverPollRps = envInt('SAGA_BENCH_SERVER_POLL_RPS', 1000);
  const limitRps = envInt('SAGA_BENCH_PRIORITY_RPS', 20);
  const burstN = envInt('SAGA_BENCH_BURST', 200, 0);
  const quotaN = envInt('SAGA_BENCH_QUOTA', 200, 0);
  const only = onlyParts();
  const runs = (part: OnlyPart) => only.size === 0 || only.has(part);
  Runtime.install({ logger: new DefaultLogger('WARN') });

  // The dev servers' dynamic config (fairness on, as deployed), with this run's poll rate.
  const devServer = await startBenchServer({
    dynamicConfig: { 'history.transferProcessorMaxPollRPS': serverPollRps, ...extraDynamicConfig() },
  });
  const server = { address: devServer.address, namespace: devServer.namespace };
  const serverPid = devServer.pid;
  const airline = await startChild<{ port: number }>(['--airline']);
  const airlineUrl = `http://127.0.0.1:${airline.first.port}`;
  const zzProfile = embeddedProfile({ config: benchAirlineConfig(), url: airlineUrl });
  const ndc = new NdcHttpClient(zzProfile.client);
  // The route the API gives a booking of the embedded airline (BookingWorkflowOptions.airlines).
  const zz = airlineRoute(zzProfile);
  const routed: BookingWorkflowOptions = { airlines: [zz] };
  const zzAt = (limit: number): BenchAirline => ({ code: zz.code, url: airlineUrl, rateLimitRps: limit });
  const taskQueue = `bench-saga-${randomUUID().slice(0, 8)}`;
  const levers = workerLevers();
  const worker = await startChild<{ ready: boolean }>([
    '--worker',
    JSON.stringify({
      ...server,
      taskQueue,
      airlines: [zzAt(rps)],
      rateLimitRps: rps,
      ...levers,
    } satisfies WorkerChildOptions),
  ]);
  // The second airline of the quota part (another designator and world), only when it runs.
  const yyChild =
    quotaN > 0 && runs('quota') ? await startChild<{ port: number }>(['--airline', '{"airlineCode":"YY"}']) : undefined;
  const yy: BenchAirline | undefined =
    yyChild !== undefined
      ? { code: 'YY', url: `http://127.0.0.1:${yyChild.first.port}`, rateLimitRps: limitRps }
      : undefined;
  const client = await createTemporalClient({
    config: loadTemporalConfig({ TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: server.namespace }),
  });

  const book = async (intent: BookingIntent, ids?: string[]): Promise<number> => {
    const started = performance.now();
    const workflowId = `bench-${randomUUID()}`;
    ids?.push(workflowId);
    // execute = start + result(): the result is a long poll, so the latency has no polling interval in it.
    const result = await client.workflow.execute(BOOKING_WORKFLOW, { workflowId, taskQueue, args: [intent, routed] });
    const state = (result as BookingResult).state;
    if (state.status !== 'CONFIRMED')
      throw new Error(`booking ended ${state.status}: ${state.error?.type} ${state.error?.message}`);
    return performance.now() - started;
  };

  try {
    out(
      `saga bench: N=${n}, concurrency=${concurrency}, sequential ${seqN}, open ${open}, intake ${intake} with ${callers} callers, burst ${burstN}, quota ${quotaN}, worker rate limit ${rps} activities/s, airline limit ${limitRps}/s, parts ${only.size === 0 ? 'all' : [...only].join(',')}, ` +
        `Temporal ${server.address} (dev server pid ${serverPid}, history.transferProcessorMaxPollRPS=${serverPollRps}), worker levers ${JSON.stringify(levers)}; load average ${loadAvg()}`,
    );
    // Warm-up: workflow bundle, connections, JIT.
    for (const intent of intents(2, 200)) await book(intent);
    const priority = async () => {
      const batch = envInt('SAGA_BENCH_PRIORITY_BATCH', 1000, 0);
      if (batch === 0) return;
      const figures = await measurePriority({
        ...server,
        airline: zzAt(limitRps),
        route: zz,
        client,
        batch,
        samples: envInt('SAGA_BENCH_PRIORITY_SAMPLES', 10),
        rps: limitRps,
        precedence: process.env.SAGA_BENCH_PRIORITY !== 'off',
      });
      out(
        `priority:  ${figures.samples} interactive bookings one at a time (key ${figures.interactiveKey}, batch key ${figures.batchKey}), rate limit ${figures.rps}/s: ` +
          `idle p50 ${ms(figures.idle.p50)}, p99 ${ms(figures.idle.p99)}; with a batch of ${batch} queued p50 ${ms(figures.queued.p50)}, p99 ${ms(figures.queued.p99)}; ` +
          `p50 ratio queued/idle = ${(figures.queued.p50 / figures.idle.p50).toFixed(2)}x (target <= 2x); ` +
          `batch children finished meanwhile ${figures.batchFinished} of ${batch} (load average ${loadAvg()})`,
      );
      GAPS.forEach(([label], g) =>
        out(
          `priority:  ${label}: mean ${figures.gapsMs.idle[g]!.toFixed(1)} ms idle, ${figures.gapsMs.queued[g]!.toFixed(1)} ms queued`,
        ),
      );
    };
    // On a worker at the product's airline limit: the burst, the quota, and the intake's second run.
    const limited = async (body: (queue: string) => Promise<void>): Promise<void> => {
      const queue = `${taskQueue}-limited`;
      const child = await startChild<{ ready: boolean }>([
        '--worker',
        JSON.stringify({
          ...server,
          taskQueue: queue,
          airlines: [zzAt(limitRps), ...(yy !== undefined ? [yy] : [])],
          rateLimitRps: limitRps,
          ...levers,
        } satisfies WorkerChildOptions),
      ]);
      try {
        await body(queue);
      } finally {
        await stopChild(child.child);
      }
    };
    const interactive = bookingPriority('interactive', 'BENCH', loadBookingPriorities());
    const burstAndQuota = async (queue: string): Promise<void> => {
      if (burstN > 0 && runs('burst'))
        await measureBurst({ client, taskQueue: queue, n: burstN, rps: limitRps, route: zz, priority: interactive });
      if (yy !== undefined)
        await measureQuota({
          client,
          taskQueue: queue,
          n: quotaN,
          rps: limitRps,
          routes: [zz, airlineRoute(embeddedProfile({ config: benchAirlineConfig(yy.code), url: yy.url }))],
          priority: interactive,
        });
    };
    if (only.size > 0) {
      if (runs('burst') || runs('quota')) await limited(burstAndQuota);
      if (runs('priority')) await priority();
      return;
    }

    // 1. One booking at a time: latency, per-step gaps, history events, codec cost.
    const seqIds: string[] = [];
    const seq: number[] = [];
    for (const intent of intents(seqN, 130)) seq.push(await book(intent, seqIds));
    out(
      `sequential: ${seqN} bookings one at a time: latency p50 ${ms(percentile(seq, 50))}, p99 ${ms(percentile(seq, 99))} (load average ${loadAvg()})`,
    );
    for (const gap of await historyGaps(client, seqIds))
      out(`history:   ${gap.label}: mean ${gap.meanMs.toFixed(1)} ms over ${gap.count}`);
    const facts = await historyFacts(client, seqIds);
    const perBooking = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    out(
      `history:   events per booking ${perBooking(facts.events).toFixed(1)}, payloads per booking ${perBooking(facts.payloads.map((p) => p.length)).toFixed(1)}`,
    );
    {
      // Every payload of a booking's history crossed the codec once each way (encoded by its
      // writer, decoded by its reader): time decode + encode of all of them, as the cost per booking.
      const codec = new EncryptionCodec(loadPayloadKey());
      const rounds = Math.max(3, Math.ceil(200 / facts.payloads.length));
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let r = 0; r < rounds; r++) for (const p of facts.payloads) await codec.encode(await codec.decode(p));
      const wallMs = (performance.now() - t0) / (rounds * facts.payloads.length);
      const c = process.cpuUsage(c0);
      const cpu = (c.user + c.system) / 1000 / (rounds * facts.payloads.length);
      out(
        `codec:     decrypt + encrypt of one booking's history payloads: ${cpu.toFixed(2)} ms CPU (${wallMs.toFixed(2)} ms wall) per booking`,
      );
    }

    // 2. Concurrent bookings: throughput and CPU per booking of the server, worker and airline.
    const queue = intents(n, 10);
    const latencies: number[] = [];
    const s0 = procStats(serverPid);
    const [w0, a0] = await Promise.all([childStats(worker.child), childStats(airline.child)]);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let intent = queue.shift(); intent !== undefined; intent = queue.shift())
          latencies.push(await book(intent));
      }),
    );
    const wall = (performance.now() - t0) / 1000;
    const s1 = procStats(serverPid);
    const [w1, a1] = await Promise.all([childStats(worker.child), childStats(airline.child)]);
    const serverPer = (s1.cpuMs - s0.cpuMs) / n;
    const workerPer = cpuMs(w0, w1) / n;
    out(
      `temporal:  ${n} bookings in ${wall.toFixed(2)} s = ${(n / wall).toFixed(2)} bookings/s at concurrency ${concurrency}; latency p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (load average ${loadAvg()})`,
    );
    out(
      `cpu:       per booking: server ${serverPer.toFixed(1)} ms, worker ${workerPer.toFixed(1)} ms, server + worker ${(serverPer + workerPer).toFixed(1)} ms (target <= 100 and within 1.3x of the floor), airline ${(cpuMs(a0, a1) / n).toFixed(1)} ms`,
    );

    // 2b. Temporal's floor, on the same server: six no-op activities per workflow, same N and concurrency.
    const floor = await measureFloor({ ...server, client, serverPid, n, concurrency });
    out(
      `floor:     ${n} bare workflows of ${FLOOR_STEPS} no-op activities (2 KB payload, default data converter) at concurrency ${concurrency}: ${floor.perSecond.toFixed(2)} workflows/s; per workflow: server ${floor.serverMs.toFixed(1)} ms, worker ${floor.workerMs.toFixed(1)} ms, server + worker ${(floor.serverMs + floor.workerMs).toFixed(1)} ms, ${floor.events.toFixed(1)} history events (load average ${loadAvg()})`,
    );
    out(
      `ratio:     cpu ratio booking / floor = ${((serverPer + workerPer) / (floor.serverMs + floor.workerMs)).toFixed(2)} (target <= 1.30; server ${(serverPer / floor.serverMs).toFixed(2)}, worker ${(workerPer / floor.workerMs).toFixed(2)}); events ratio ${(perBooking(facts.events) / floor.events).toFixed(2)}`,
    );

    // 3. Worker memory with `open` bookings waiting at the price guard.
    const rssBefore = (await childStats(worker.child)).rss;
    const openIds: string[] = [];
    const guarded = intents(open, 20).map((intent) => ({
      ...intent,
      selection: { ...intent.selection, maxTotal: '1.00' },
    }));
    for (let i = 0; i < guarded.length; i += 50) {
      await Promise.all(
        guarded.slice(i, i + 50).map(async (intent) => {
          const workflowId = `bench-open-${randomUUID()}`;
          openIds.push(workflowId);
          await client.workflow.start(BOOKING_WORKFLOW, { workflowId, taskQueue, args: [intent, routed] });
        }),
      );
    }
    const awaiting = `TaskQueue = '${taskQueue}' AND BookingStatus = 'AWAITING_APPROVAL'`;
    for (let waiting = 0; waiting < open;) {
      await new Promise((r) => setTimeout(r, 500));
      waiting = (await client.workflow.count(awaiting)).count;
    }
    const rssOpen = (await childStats(worker.child)).rss;
    out(
      `memory:    worker RSS ${(rssOpen / 1e6).toFixed(0)} MB with ${open} bookings open at the price guard (${(rssBefore / 1e6).toFixed(0)} MB before; target <= 600 MB at 1000); server RSS ${procStats(serverPid).rssMb.toFixed(0)} MB`,
    );
    for (let i = 0; i < openIds.length; i += 50) {
      await Promise.all(openIds.slice(i, i + 50).map((id) => client.workflow.getHandle(id).terminate('bench done')));
    }

    // 4. and 5. On a worker at the product's airline limit (SAGA_BENCH_PRIORITY_RPS, default 20
    // calls/s): a burst at one airline, then the quota of two; then the API intake through POST
    // /bookings with the worker running: this run's worker (no airline limit: it runs the started
    // bookings as fast as the CPU lets it), then the one at the airline limit. The intake comes
    // last: the bookings it starts are terminated, not run, and their calls left queued would
    // take slots of the airline's limit from the burst.
    await limited(async (limitedQueue) => {
      await burstAndQuota(limitedQueue);
      for (const [queue, label, firstDay] of [
        [taskQueue, `worker rate limit ${rps}/s`, 40],
        [limitedQueue, `worker rate limit ${limitRps}/s`, 100],
      ] as const) {
        const rate = await measureIntake({
          address: server.address,
          namespace: server.namespace,
          taskQueue: queue,
          airlineUrl,
          client,
          intents: intents(intake, firstDay),
          callers,
        });
        out(
          `intake:    ${intake} intents through POST /bookings with ${callers} callers, ${label}: ${rate.perSecond.toFixed(1)} intents/s (target >= 200), p50 ${ms(rate.p50)} per request; API process CPU ${rate.apiCpuMs.toFixed(2)} ms per intent (callers in a process of their own) (load average ${loadAvg()})`,
        );
      }
    });

    // 6. Direct, without Temporal, for comparison.
    const activities = createBookingActivities({ client: ndc, airline: zzProfile, heartbeatIntervalMs: 60_000 });
    await directBooking(activities, intents(1, 250)[0]!);
    const direct: number[] = [];
    const t1 = performance.now();
    for (const intent of intents(n, 90)) {
      const s = performance.now();
      await directBooking(activities, intent);
      direct.push(performance.now() - s);
    }
    const directWall = (performance.now() - t1) / 1000;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const d50 = percentile(direct, 50);
    const d99 = percentile(direct, 99);
    out(
      `direct:    ${n} bookings in ${directWall.toFixed(2)} s = ${(n / directWall).toFixed(2)} bookings/s in sequence; latency p50 ${ms(d50)}, p99 ${ms(d99)}`,
    );
    out(
      `overhead:  p50 latency ratio temporal/direct = ${(p50 / d50).toFixed(2)}x (p99 ${(p99 / d99).toFixed(2)}x); throughput ratio temporal/direct = ${(n / wall / (n / directWall)).toFixed(2)}x`,
    );

    // 7. Interactive bookings while a big batch is queued behind the airline's rate limit.
    await priority();
  } finally {
    await stopChild(worker.child);
    await client.connection.close();
    ndc.close();
    await stopChild(airline.child);
    if (yyChild !== undefined) await stopChild(yyChild.child);
    await devServer.teardown();
  }
}

interface FloorFigures {
  perSecond: number;
  /** Server and worker CPU per workflow, ms. */
  serverMs: number;
  workerMs: number;
  /** History events per workflow. */
  events: number;
}

/**
 * Temporal's floor: `n` {@link floorWorkflow}s at `concurrency` on a bare worker of their own
 * (a child process, so that its CPU is the floor's alone), after two for warm-up.
 */
async function measureFloor(o: {
  address: string;
  namespace: string;
  client: Client;
  serverPid: number;
  n: number;
  concurrency: number;
}): Promise<FloorFigures> {
  const taskQueue = `bench-floor-${randomUUID().slice(0, 8)}`;
  const worker = await startChild<{ ready: boolean }>([
    '--floor-worker',
    JSON.stringify({ address: o.address, namespace: o.namespace, taskQueue } satisfies FloorWorkerOptions),
  ]);
  // The default data converter (the product's client encrypts payloads).
  const plain = new Client({ connection: o.client.connection, namespace: o.namespace });
  const payload = 'x'.repeat(2048);
  const ids: string[] = [];
  const one = async () => {
    const workflowId = `bench-floor-${randomUUID()}`;
    ids.push(workflowId);
    await plain.workflow.execute(floorWorkflow, { workflowId, taskQueue, args: [payload] });
  };
  try {
    for (let i = 0; i < 2; i++) await one();
    ids.length = 0;
    let left = o.n;
    const s0 = procStats(o.serverPid);
    const w0 = await childStats(worker.child);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        for (; left > 0;) {
          left -= 1;
          await one();
        }
      }),
    );
    const wall = (performance.now() - t0) / 1000;
    const s1 = procStats(o.serverPid);
    const w1 = await childStats(worker.child);
    const { events } = await historyFacts(plain, ids.slice(0, 10));
    return {
      perSecond: o.n / wall,
      serverMs: (s1.cpuMs - s0.cpuMs) / o.n,
      workerMs: cpuMs(w0, w1) / o.n,
      events: events.reduce((a, b) => a + b, 0) / events.length,
    };
  } finally {
    await stopChild(worker.child);
  }
}

interface IntakeOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  airlineUrl: string;
  client: Client;
  intents: BookingIntent[];
  callers: number;
}

/** Intents per second through the API's `POST /bookings` (agency key as in test/api/stack.ts). */
async function measureIntake(o: IntakeOptions): Promise<{ perSecond: number; p50: number; apiCpuMs: number }> {
  const { createTestKeys } = await import('../test/api/keys.fixture');
  const { loadApiConfig } = await import('../src/api/config/api.config');
  const { createApiApp } = await import('../src/configure-app');
  const { uiPayloadCodec } = await import('../src/main');
  const keys = createTestKeys({ bench: { agencyId: 'BENCH' } });
  const config = {
    ...loadApiConfig({
      TEMPORAL_ADDRESS: o.address,
      TEMPORAL_NAMESPACE: o.namespace,
      TEMPORAL_TASK_QUEUE: o.taskQueue,
      AIRLINE_BASE_URL: o.airlineUrl,
      API_LOG: 'error,warn',
      API_KEYS_FILE: keys.file,
      RATE_LIMIT_POINTS: '0',
    }),
    port: 0,
    host: '127.0.0.1',
  };
  const api = await createApiApp({ config, temporalClient: o.client, codec: uiPayloadCodec() });
  await api.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${(api.getHttpServer().address() as { port: number }).port}/bookings`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${keys.secret('bench')}` };
  try {
    // The callers run in a process of their own (as agencies do), so this process's CPU is the API's.
    const callers = await startChild<{ ready: boolean }>(['--callers']);
    const c0 = process.cpuUsage();
    const { wallMs, latencies, started } = await runCallers(callers.child, {
      url,
      headers,
      intents: o.intents,
      callers: o.callers,
    });
    const c = process.cpuUsage(c0);
    await stopChild(callers.child);
    const wall = wallMs / 1000;
    const apiCpuMs = (c.user + c.system) / 1000 / o.intents.length;
    // The intake is measured; the bookings it started are not run to the end.
    await terminateAll(o.client, started, 50);
    return { perSecond: o.intents.length / wall, p50: percentile(latencies, 50), apiCpuMs };
  } finally {
    await api.close();
    keys.remove();
  }
}

interface PriorityOptions {
  address: string;
  namespace: string;
  /** The airline, served at {@link rps}. */
  airline: BenchAirline;
  /** Its route: the bookings and the batch are started with it (the API's path). */
  route: AirlineRoute;
  client: Client;
  /** Children of the queued batch, all started at once. */
  batch: number;
  /** Interactive bookings measured idle, and again with the batch queued. */
  samples: number;
  /** The airline's rate limit (its queue's `maxTaskQueueActivitiesPerSecond`). */
  rps: number;
  /** false: the interactive bookings get the batch's priority key (no precedence). */
  precedence: boolean;
}

interface PriorityFigures {
  samples: number;
  rps: number;
  interactiveKey: number;
  batchKey: number;
  idle: { p50: number; p99: number };
  queued: { p50: number; p99: number };
  /** Children of the batch that had finished when the last interactive booking had. */
  batchFinished: number;
  /** Mean {@link GAPS} of the interactive bookings, in that order. */
  gapsMs: { idle: number[]; queued: number[] };
}

/**
 * Latency of single interactive bookings on an idle worker, then while a batch keeps its airline
 * rate limit busy; on a worker and task queue of their own (the other parts run without limit).
 */
async function measurePriority(o: PriorityOptions): Promise<PriorityFigures> {
  const taskQueue = `bench-prio-${randomUUID().slice(0, 8)}`;
  const worker = await startChild<{ ready: boolean }>([
    '--worker',
    JSON.stringify({
      address: o.address,
      namespace: o.namespace,
      taskQueue,
      airlines: [{ ...o.airline, rateLimitRps: o.rps }],
      rateLimitRps: o.rps,
      ...workerLevers(),
    } satisfies WorkerChildOptions),
  ]);
  const keys = loadBookingPriorities();
  const interactive = bookingPriority(o.precedence ? 'interactive' : 'batch', 'BENCH', keys);
  const options: BookingWorkflowOptions = { airlines: [o.route] };
  const book = async (intent: BookingIntent, ids?: string[]): Promise<number> => {
    const started = performance.now();
    const workflowId = `bench-interactive-${randomUUID()}`;
    ids?.push(workflowId);
    const result = await o.client.workflow.execute(BOOKING_WORKFLOW, {
      workflowId,
      taskQueue,
      args: [intent, options],
      priority: interactive,
    });
    const state = (result as BookingResult).state;
    if (state.status !== 'CONFIRMED')
      throw new Error(`booking ended ${state.status}: ${state.error?.type} ${state.error?.message}`);
    return performance.now() - started;
  };
  const batchId = `bench-batch-${randomUUID()}`;
  const batch = o.client.workflow.getHandle(batchId);
  try {
    await book(intents(1, 100)[0]!); // this worker's warm-up
    const idle: number[] = [];
    const idleIds: string[] = [];
    for (const intent of intents(o.samples, 105)) idle.push(await book(intent, idleIds));

    const input: BatchInput = { intents: intents(o.batch, 110), concurrency: o.batch, options };
    await o.client.workflow.start(BATCH_WORKFLOW, {
      workflowId: batchId,
      taskQueue,
      args: [input],
      priority: bookingPriority('batch', 'BENCH', keys),
    });
    // Queued: every child started and airline calls waiting behind the rate limit (or, with a
    // batch too small to queue, all of it through). Not "all children waiting for a call": a
    // worker short of CPU holds many of them in workflow tasks instead (bench/README.md).
    const TaskQueueType = temporal.api.enums.v1.TaskQueueType;
    const waitingCalls = async (): Promise<number> => {
      const r = await o.client.workflowService.describeTaskQueue({
        namespace: o.namespace,
        taskQueue: { name: airlineTaskQueue(taskQueue, o.route.code) },
        taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
        reportStats: true,
      });
      return Number(r.stats?.approximateBacklogCount ?? 0);
    };
    for (;;) {
      const progress = await batch.query(progressQuery).catch(() => undefined);
      if (progress !== undefined && progress.pending === 0) {
        if (progress.running === 0 || (await waitingCalls()) > 0) break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const queued: number[] = [];
    const queuedIds: string[] = [];
    for (const intent of intents(o.samples, 175)) {
      queued.push(await book(intent, queuedIds));
    }
    const progress = await batch.query(progressQuery);
    const gaps = async (ids: string[]) => (await historyGaps(o.client, ids)).map((gap) => gap.meanMs);
    return {
      samples: o.samples,
      rps: o.rps,
      interactiveKey: interactive.priorityKey!,
      batchKey: keys.batch,
      idle: { p50: percentile(idle, 50), p99: percentile(idle, 99) },
      queued: { p50: percentile(queued, 50), p99: percentile(queued, 99) },
      batchFinished: progress.total - progress.pending - progress.running,
      gapsMs: { idle: await gaps(idleIds), queued: await gaps(queuedIds) },
    };
  } finally {
    // The worker first (no completions for terminated workflows), then the batch and its children
    // (started with ABANDON: one by one).
    await stopChild(worker.child);
    const ids = [batchId, ...Array.from({ length: o.batch }, (_, i) => `${batchId}-${i}`)];
    await terminateAll(o.client, ids, 100);
  }
}

/** What a burst of bookings submitted at once came to (times from the server's close times). */
interface BurstRun {
  /** Per booking, submit -> close of its workflow (it closes when it confirmed), ms. */
  latencies: number[];
  /** First submit -> last close, ms. */
  durationMs: number;
  /** First submit -> first close, ms. */
  firstMs: number;
  /** The booking that confirmed first. */
  firstId: string;
  /** First submit -> the last booking's workflow start on the server, ms: how long the burst took to arrive. */
  arrivalMs: number;
  /** Mean airline calls per booking: the attempts of its steps (each step is one airline activity). */
  callsPerBooking: number;
  ids: string[];
}

interface BurstOptions {
  client: Client;
  taskQueue: string;
  intents: BookingIntent[];
  options: BookingWorkflowOptions;
  priority: Priority;
}

/**
 * The price a burst's customer accepts without being asked. Many bookings of a burst price the
 * same cheapest seats; those that lose them at the order (NO_SEATS) shop again, and a dearer
 * second price would otherwise wait for the customer's approval at the price guard (24 h), as
 * it does in the product (legacy burst of 2026-11-25: 31 of 200 did).
 */
const BURST_MAX_TOTAL = '100000.00';

/**
 * Starts a booking per intent (with {@link BURST_MAX_TOTAL}), all at once, and waits for each to end CONFIRMED. A booking's
 * confirmation time is its workflow's close time on the server (same machine, same clock), read
 * after the burst, so that no long poll per booking is held open meanwhile.
 */
async function runBurst(o: BurstOptions): Promise<BurstRun> {
  const ids = o.intents.map(() => `bench-burst-${randomUUID()}`);
  const submitted: number[] = [];
  await Promise.all(
    o.intents.map((intent, i) => {
      submitted[i] = Date.now();
      return o.client.workflow.start(BOOKING_WORKFLOW, {
        workflowId: ids[i]!,
        taskQueue: o.taskQueue,
        args: [{ ...intent, selection: { ...intent.selection, maxTotal: BURST_MAX_TOTAL } }, o.options],
        priority: o.priority,
      });
    }),
  );
  const closed: number[] = [];
  let lastStart = 0;
  let calls = 0;
  for (const id of ids) {
    const handle = o.client.workflow.getHandle(id);
    const { state } = (await handle.result()) as BookingResult;
    if (state.status !== 'CONFIRMED')
      throw new Error(`booking ${id} ended ${state.status}: ${state.error?.type} ${state.error?.message}`);
    calls += state.steps.reduce((sum, step) => sum + step.attempts, 0);
    const { startTime, closeTime } = await handle.describe();
    closed.push(closeTime!.getTime());
    lastStart = Math.max(lastStart, startTime.getTime());
  }
  const first = Math.min(...submitted);
  return {
    latencies: closed.map((at, i) => at - submitted[i]!),
    durationMs: Math.max(...closed) - first,
    firstMs: Math.min(...closed) - first,
    firstId: ids[closed.indexOf(Math.min(...closed))]!,
    arrivalMs: lastStart - first,
    callsPerBooking: calls / ids.length,
    ids,
  };
}

/** Mean activity dispatch (scheduled -> started, ms) per activity type over the histories of `ids`. */
async function dispatchByActivity(client: Client, ids: string[]): Promise<Map<string, number>> {
  const sums = new Map<string, { total: number; count: number }>();
  const at = (e: temporal.api.history.v1.IHistoryEvent) =>
    Number(e.eventTime?.seconds ?? 0) * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;
  for (const id of ids) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const scheduled = new Map<number, { type: string; at: number }>();
    for (const event of history.events ?? []) {
      const attrs = event.activityTaskScheduledEventAttributes;
      if (attrs != null) scheduled.set(Number(event.eventId), { type: attrs.activityType?.name ?? '?', at: at(event) });
      const started = event.activityTaskStartedEventAttributes;
      const from = started != null ? scheduled.get(Number(started.scheduledEventId)) : undefined;
      if (from === undefined) continue;
      const sum = sums.get(from.type) ?? { total: 0, count: 0 };
      sum.total += at(event) - from.at;
      sum.count += 1;
      sums.set(from.type, sum);
    }
  }
  return new Map([...sums].map(([type, sum]) => [type, sum.total / sum.count]));
}

/** The lines of where a burst's time went: mean history gaps and activity dispatch per step. */
async function burstGaps(client: Client, prefix: string, ids: string[]): Promise<void> {
  const gaps = await historyGaps(client, ids);
  out(`${prefix} mean ${gaps.map((gap) => `${gap.label} ${gap.meanMs.toFixed(1)} ms`).join('; ')}`);
  const byActivity = await dispatchByActivity(client, ids);
  out(
    `${prefix} mean activity dispatch per step: ${[...byActivity].map(([type, mean]) => `${type} ${ms(mean)}`).join(', ')}`,
  );
}

/** Idle one-booking latency (p50 of a few, after one warm-up), then the burst's figures. */
async function measureBurst(o: {
  client: Client;
  taskQueue: string;
  n: number;
  rps: number;
  route: AirlineRoute;
  priority: Priority;
}): Promise<void> {
  const paths: Array<[string, string, BookingWorkflowOptions, number]> = [
    ['routed', "the airline's queue, first shop one key below the booking's", { airlines: [o.route] }, 140],
    ['legacy', "no airlines: the workflows' queue, every step at the booking's key", {}, 145],
  ];
  for (const [name, what, options, firstDay] of paths) {
    const one = (intent: BookingIntent) => runBurst({ ...o, intents: [intent], options });
    const [warmUp, ...samples] = intents(1 + BURST_IDLE_SAMPLES, firstDay + 60);
    await one(warmUp!);
    const idle: number[] = [];
    for (const intent of samples) idle.push((await one(intent)).latencies[0]!);
    const idleMs = percentile(idle, 50);
    const burst = await runBurst({ ...o, intents: intents(o.n, firstDay), options });
    const median = percentile(burst.latencies, 50);
    out(
      `burst:     ${name} (${what}): ${o.n} intents at once, key ${o.priority.priorityKey}, one airline at ${o.rps} calls/s: ` +
        `idle latency p50 ${ms(idleMs)}, all started after ${ms(burst.arrivalMs)}, first confirmation after ${ms(burst.firstMs)}, median latency ${ms(median)}, ` +
        `burst duration ${ms(burst.durationMs)}, ${burst.callsPerBooking.toFixed(2)} airline calls per booking (load average ${loadAvg()})`,
    );
    out(
      `burst:     ${name}: burst median latency / burst duration = ${(median / burst.durationMs).toFixed(2)} (target <= 0.6)`,
    );
    out(`burst:     ${name}: first confirmation / idle latency = ${(burst.firstMs / idleMs).toFixed(2)} (target <= 3)`);
    await burstGaps(o.client, `burst:     ${name}:`, burst.ids);
    await burstGaps(o.client, `burst:     ${name}: the first confirmed booking's`, [burst.firstId]);
  }
}

/** Idle bookings the burst's ratio is taken against. */
const BURST_IDLE_SAMPLES = 3;

/**
 * Two airlines at `rps` calls/s each, `n` intents at once, every other one naming the other
 * airline: bookings/s against what the quotas allow.
 */
async function measureQuota(o: {
  client: Client;
  taskQueue: string;
  n: number;
  rps: number;
  routes: AirlineRoute[];
  priority: Priority;
}): Promise<void> {
  const options: BookingWorkflowOptions = { airlines: o.routes };
  const at = (list: BookingIntent[]) =>
    list.map((intent, i) => ({ ...intent, airlines: [o.routes[i % o.routes.length]!.code] }));
  await runBurst({ ...o, options, intents: at(intents(o.routes.length, 215)) }); // warm-up, one per airline
  const run = await runBurst({ ...o, options, intents: at(intents(o.n, 150)) });
  const perSecond = o.n / (run.durationMs / 1000);
  const bound = (o.rps * o.routes.length) / run.callsPerBooking;
  const codes = o.routes.map((route) => route.code).join(' and ');
  out(
    `quota:     ${o.n} intents at once split over ${codes} (${o.rps} calls/s each), key ${o.priority.priorityKey}: ` +
      `${perSecond.toFixed(2)} bookings/s in ${(run.durationMs / 1000).toFixed(1)} s, ${run.callsPerBooking.toFixed(2)} airline calls per booking, ` +
      `quota-bound ${bound.toFixed(2)} bookings/s; latency p50 ${ms(percentile(run.latencies, 50))} (load average ${loadAvg()})`,
  );
  out(`quota:     quota use = bookings/s / quota-bound bookings/s = ${(perSecond / bound).toFixed(2)} (target >= 0.9)`);
  await burstGaps(o.client, 'quota:    ', run.ids);
}
