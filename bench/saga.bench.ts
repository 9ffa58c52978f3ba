/**
 * `npm run bench -- saga`: booking sagas through the embedded stack, all in this process except
 * the Temporal dev server (in memory, started from the CLI): the airline app (in-memory SQLite),
 * a booking worker and a Temporal client with the encrypting data converter.
 *
 * 1. N bookings (SAGA_BENCH_N, default 40) at fixed concurrency (SAGA_BENCH_CONCURRENCY, default
 *    8) as `bookingWorkflow` executions: bookings/s, p50 and p99 end-to-end latency (start to
 *    result).
 * 2. The same N bookings without Temporal, in sequence: the same activity code (shop, price,
 *    tokenise, reprice with the token, create the order, retrieve it) called directly with the
 *    NDC client (through MockActivityEnvironment, which needs no server).
 * 3. The orchestration overhead: p50 latency with Temporal / p50 latency direct.
 *
 * The worker's airline rate limit is SAGA_BENCH_RPS activities/s (default 1000: effectively off,
 * so the figures show the orchestration, not the limit; the product default is 20).
 *
 * The dev server has a single history shard, and its transfer-queue reader (which hands every new
 * workflow task and activity task to matching) polls at most `history.transferProcessorMaxPollRPS`
 * times a second (server default 20). Once the reader's burst is spent, every dispatch waits for
 * the next poll, about 35-40 ms per task. SAGA_BENCH_SERVER_POLL_RPS (default 1000) sets it; 20
 * is the stock dev server. After the run the bench prints the mean gaps between the events of the
 * measured bookings' histories (where the time goes).
 */
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { MockActivityEnvironment, TestWorkflowEnvironment } from '@temporalio/testing';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { randomUUID } from 'node:crypto';
import { createBookingActivities } from '../activities/booking.activities';
import type { ChosenOffer, NdcContext } from '../activities/booking.activities.types';
import { resolveTemporalCli } from '../scripts/temporal-cli';
import { BOOKING_WORKFLOW, type BookingIntent, type BookingResult } from '../src/booking/booking.model';
import { NdcHttpClient } from '../src/ndc-client';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS, createTemporalClient, loadTemporalConfig } from '../src/temporal';
import { createBookingWorker } from '../src/worker/worker';
import { ndcClientConfig, startAirline } from '../test/airline/airline-harness';
import { oneWayIntent } from '../test/api/intent.fixture';
import { selectOffers } from '../workflows/offer-selection';

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}: must be a positive integer, got "${v}"`);
  return n;
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
  ['workflow task scheduled -> started (dispatch)', EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED],
  ['workflow task started -> completed (worker)', EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED],
  ['activity scheduled -> started (dispatch)', EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED],
  ['activity started -> completed (activity)', EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED],
];

/**
 * Mean gap (ms) and count per {@link GAPS} entry over the histories of `workflowIds`: for each
 * `to` event, the time since the latest `from` event before it.
 */
async function historyGaps(client: Client, workflowIds: string[]): Promise<Array<{ label: string; meanMs: number; count: number }>> {
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
  return GAPS.map(([label], i) => ({ label, meanMs: sums[i]!.count > 0 ? sums[i]!.total / sums[i]!.count : 0, count: sums[i]!.count }));
}

/** N intents on distinct dates (so the cheap buckets are not sold out), credit card (surcharge). */
function intents(n: number, offsetDays: number): BookingIntent[] {
  const now = new Date();
  return Array.from({ length: n }, (_, i) => {
    const intent = oneWayIntent({ agencyId: 'BENCH', now });
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offsetDays + (i % 60)));
    intent.journey.departureDate = d.toISOString().slice(0, 10);
    return intent;
  });
}

/** One booking without Temporal: the activity code in sequence, as the workflow orders it. */
async function directBooking(activities: ReturnType<typeof createBookingActivities>, intent: BookingIntent): Promise<string> {
  const env = new MockActivityEnvironment();
  const act = <I, O>(fn: (input: I) => Promise<O>, input: I): Promise<O> => env.run(fn as never, input as never) as Promise<O>;
  const ctx: NdcContext = {
    correlationId: `direct-${randomUUID()}`,
    agency: intent.agency,
    pointOfSale: intent.pointOfSale,
    currency: intent.currency,
    language: intent.language,
    passengers: intent.passengers,
    contacts: intent.contacts,
  };
  const shop = await act(activities.shop, { ctx, origin: intent.journey.origin, destination: intent.journey.destination, departureDate: intent.journey.departureDate });
  const [offer] = selectOffers(shop.offers, 1);
  if (offer === undefined) throw new Error('no offer');
  const chosen: ChosenOffer[] = [{ offerId: offer.offerId, owner: offer.owner, responseId: shop.shoppingResponseId, offerItems: offer.offerItems }];
  const first = await act(activities.price, { ctx, offers: chosen });
  const token = await act(activities.tokenise, { card: intent.payment.card, correlationId: ctx.correlationId });
  const priced = await act(activities.repriceWithToken, { ctx, offers: chosen, previous: first, tokenId: token.tokenId });
  const created = await act(activities.createOrder, { ctx, priced, tokenId: token.tokenId, securePayment: intent.securePayment });
  const retrieved = await act(activities.retrieveOrder, { ctx, orderId: created.order.orderId, owner: created.order.owner });
  return retrieved.order.bookingReference;
}

export async function run(): Promise<void> {
  const n = envInt('SAGA_BENCH_N', 40);
  const concurrency = envInt('SAGA_BENCH_CONCURRENCY', 8);
  const rps = envInt('SAGA_BENCH_RPS', 1000);
  const serverPollRps = envInt('SAGA_BENCH_SERVER_POLL_RPS', 1000);
  Runtime.install({ logger: new DefaultLogger('WARN') });

  // The CLI's dev server (in memory), as startDevServer runs it, plus the transfer-queue poll rate.
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: resolveTemporalCli().path },
      ip: '127.0.0.1',
      searchAttributes: [...BOOKING_SEARCH_ATTRIBUTE_KEYS],
      extraArgs: ['--dynamic-config-value', `history.transferProcessorMaxPollRPS=${serverPollRps}`],
    },
  });
  const server = { address: env.address, namespace: env.namespace ?? 'default' };
  const airline = await startAirline();
  const ndc = new NdcHttpClient(ndcClientConfig(airline));
  const taskQueue = `bench-saga-${randomUUID().slice(0, 8)}`;
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await createBookingWorker({ connection, namespace: server.namespace, taskQueue, activityDeps: { client: ndc }, rateLimitRps: rps });
  const running = worker.run();
  const client = await createTemporalClient({ config: loadTemporalConfig({ TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: server.namespace }) });

  const measuredIds: string[] = [];
  const book = async (intent: BookingIntent, measured = true): Promise<number> => {
    const started = performance.now();
    const workflowId = `bench-${randomUUID()}`;
    if (measured) measuredIds.push(workflowId);
    // execute = start + result(): the result is a long poll, so the latency has no polling interval in it.
    const result = await client.workflow.execute(BOOKING_WORKFLOW, {
      workflowId,
      taskQueue,
      args: [intent, {}],
    });
    const state = (result as BookingResult).state;
    if (state.status !== 'CONFIRMED') throw new Error(`booking ended ${state.status}: ${state.error?.type} ${state.error?.message}`);
    return performance.now() - started;
  };

  try {
    out(`saga bench: N=${n}, concurrency=${concurrency}, worker rate limit ${rps} activities/s, Temporal ${server.address} (dev server, history.transferProcessorMaxPollRPS=${serverPollRps})`);
    // Warm-up: workflow bundle, connections, JIT.
    for (const intent of intents(2, 200)) await book(intent, false);

    const queue = intents(n, 10);
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let intent = queue.shift(); intent !== undefined; intent = queue.shift()) latencies.push(await book(intent));
      }),
    );
    const wall = (performance.now() - t0) / 1000;

    const activities = createBookingActivities({ client: ndc, heartbeatIntervalMs: 60_000 } as Parameters<typeof createBookingActivities>[0]);
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
    out(`temporal:  ${n} bookings in ${wall.toFixed(2)} s = ${(n / wall).toFixed(2)} bookings/s at concurrency ${concurrency}; latency p50 ${ms(p50)}, p99 ${ms(p99)}`);
    out(`direct:    ${n} bookings in ${directWall.toFixed(2)} s = ${(n / directWall).toFixed(2)} bookings/s in sequence; latency p50 ${ms(d50)}, p99 ${ms(d99)}`);
    for (const gap of await historyGaps(client, measuredIds)) {
      out(`history:   ${gap.label}: mean ${gap.meanMs.toFixed(1)} ms over ${gap.count}`);
    }
    out(`overhead:  p50 latency ratio temporal/direct = ${(p50 / d50).toFixed(2)}x (p99 ${(p99 / d99).toFixed(2)}x); throughput ratio temporal/direct = ${(n / wall / (n / directWall)).toFixed(2)}x`);
  } finally {
    worker.shutdown();
    await running;
    await client.connection.close();
    await connection.close();
    ndc.close();
    await airline.close();
    await env.teardown();
  }
}
