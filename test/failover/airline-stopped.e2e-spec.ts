/**
 * An airline that stops answering: its process stopped (SIGSTOP), not refusing. The two embedded
 * airlines (ZZ, YY) and `npm run worker` run as processes of their own (./outage-stack.ts); every
 * booking asks for price class PLUS, cheaper at ZZ (docs/airline-world.md, "Other airlines"), and
 * allows both airlines. ZZ's simulator holds calls of chosen agencies (fault `delay`, released when
 * the worker gives up) so that when ZZ is frozen, bookings are known to be waiting there:
 *
 * - two in their shop at ZZ and two in their price at ZZ: they confirm at YY, their trails say why;
 * - one whose order create was sent to ZZ: it does not move, it settles (SETTLING) and, once ZZ is
 *   thawed, reads its order back: CONFIRMED at ZZ, one order there;
 * - ZZ's circuit opens (health, metrics), a booking started meanwhile skips ZZ without a retry,
 *   and after the thaw and the breaker's open time the half-open trial closes it.
 *
 * The worker gets its short timeout, breaker and settle window from the airlines file, as an
 * operator sets them. Every wait polls a state with a generous upper bound; nothing asserts on
 * elapsed time.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { BookingState, BookingWorkflowOptions } from '../../src/booking/booking.model';
import type { bookingWorkflow } from '../../workflows';
import { stateQuery } from '../../workflows/definitions';
import { sampleSum } from '../support/prometheus';
import { createHarness, oneWayIntent, pollUntil, type Harness } from '../workflows/booking.fixtures';
import { startOutageStack, type OutageStack, type WorkerHealth } from './outage-stack';

/** How long the worker waits for ZZ's answer: what a frozen ZZ costs each call until the circuit opens. */
const TIMEOUT_MS = 15_000;
/** ZZ's breaker: three failures in a row open it for 30 s. */
const CIRCUIT = { failureThreshold: 3, openMs: 30_000 };
/** Generous bound of every wait (a busy 2-core machine). */
const PATIENCE_MS = 240_000;
/** Calls a held operation's fault holds: every attempt of the bookings it is armed for. */
const HOLD_COUNT = 100;
const HOLD_MS = 600_000;

/** The agency of each group of bookings: ZZ's faults hold the calls of one agency each. */
const AGENCY = { shopping: 'AGSHOP', pricing: 'AGPRICE', ordering: 'AGORDER', later: 'AGLATE' } as const;

type Handle = WorkflowHandle<typeof bookingWorkflow>;

/** `name@airline:outcome` of each step, in order. */
function trail(state: BookingState): string[] {
  return state.steps.map((step) => `${step.name}@${step.airline ?? '-'}:${step.outcome ?? 'running'}`);
}

/** The steps of a booking at YY once chosen there, shop excluded. */
const AT_YY = ['price', 'tokenise', 'repriceWithToken', 'createOrder', 'retrieveOrder'].map((name) => `${name}@YY:ok`);

describe('an airline that stops answering (process stopped, not refusing)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-failover-'));
  let harness: Harness;
  let stack: OutageStack;
  let departureDay = 40;
  const shopping: Handle[] = [];
  const pricing: Handle[] = [];
  let ordering: Handle;

  /** Starts a PLUS booking of `agencyId` allowed at both airlines, each on a day of its own. */
  async function book(name: string, agencyId: string): Promise<Handle> {
    departureDay += 1;
    const departureDate = new Date(Date.now() + departureDay * 86_400_000).toISOString().slice(0, 10);
    const intent = oneWayIntent({
      agency: { id: agencyId, name: 'Failover Travel' },
      journey: { origin: 'LGW', destination: 'OSL', departureDate },
      selection: { priceClass: 'PLUS' },
      airlines: ['ZZ', 'YY'],
    });
    const options: BookingWorkflowOptions = { airlines: stack.routes };
    return harness.client.workflow.start<typeof bookingWorkflow>('bookingWorkflow', {
      taskQueue: harness.taskQueue,
      workflowId: `${harness.taskQueue}-${name}`,
      args: [intent, options],
    });
  }

  const state = (handle: Handle): Promise<BookingState> => handle.query(stateQuery);
  const untilState = (handle: Handle, done: (s: BookingState) => boolean): Promise<BookingState> =>
    pollUntil(() => state(handle), done, PATIENCE_MS);
  const untilHealth = (done: (h: WorkerHealth) => boolean): Promise<WorkerHealth> =>
    pollUntil(() => stack.health(), done, PATIENCE_MS);

  beforeAll(async () => {
    harness = await createHarness('failover');
    const airline = { timeoutMs: TIMEOUT_MS, circuitBreaker: CIRCUIT };
    stack = await startOutageStack({
      dir,
      namespace: harness.namespace,
      taskQueue: harness.taskQueue,
      // ZZ's settle window outlasts the outage: absence is only concluded once ZZ could have answered.
      entries: { ZZ: { ...airline, settleWindowMs: 600_000 }, YY: airline },
    });
    // Both airlines took the worker's credentials (its start-up check): no check is in flight.
    await untilHealth((h) => ['ZZ', 'YY'].every((code) => h.airlines[code]?.credentials.status === 'accepted'));
  }, 400_000);

  afterAll(async () => {
    if (process.env.FAILOVER_DEBUG) {
      for (const h of [...shopping, ...pricing, ordering]) {
        const st = await h.query(stateQuery);
        console.log(
          h.workflowId,
          JSON.stringify({ status: st.status, airline: st.airline, steps: st.steps, airlines: st.airlines }, null, 1),
        );
      }
      console.log(JSON.stringify(await stack.health()));
    }
    await stack?.close();
    await harness?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it(
    'ZZ frozen while bookings shop and price there: they confirm at YY, each trail saying why',
    async () => {
      const zz = stack.airlines.ZZ;
      const hold = (operation: string, agencyId: string, count: number) =>
        zz.arm({ operation, mode: 'delay', count, delayMs: HOLD_MS, agencyId });
      // First the booking that orders: its create is held at ZZ (sent, not answered) ...
      await hold('OrderCreate', AGENCY.ordering, 1);
      ordering = await book('ordering', AGENCY.ordering);
      await pollUntil(
        () => zz.armedLeft('OrderCreate', AGENCY.ordering),
        (left) => left === 0,
        PATIENCE_MS,
      );
      expect((await state(ordering)).currentStep).toBe('createOrder');
      // ... then two held in their shop at ZZ and two in their price at ZZ (ZZ chosen: PLUS is cheaper there).
      await hold('AirShopping', AGENCY.shopping, HOLD_COUNT);
      await hold('OfferPrice', AGENCY.pricing, HOLD_COUNT);
      for (const name of ['shopping-1', 'shopping-2']) shopping.push(await book(name, AGENCY.shopping));
      for (const name of ['pricing-1', 'pricing-2']) pricing.push(await book(name, AGENCY.pricing));
      const held = async (operation: string, agencyId: string) =>
        HOLD_COUNT - (await zz.armedLeft(operation, agencyId));
      await pollUntil(
        async () => [await held('AirShopping', AGENCY.shopping), await held('OfferPrice', AGENCY.pricing)],
        ([shops, prices]) => shops! >= 2 && prices! >= 2,
        PATIENCE_MS,
      );
      for (const handle of pricing) expect(await state(handle)).toMatchObject({ airline: 'ZZ', currentStep: 'price' });

      zz.freeze();

      for (const handle of [...shopping, ...pricing]) {
        const { state: done } = await handle.result();
        const { status, airline, chosenOffer, order } = done;
        expect({ status, airline }).toEqual({ status: 'CONFIRMED', airline: 'YY' });
        const intentAgency = pricing.includes(handle) ? AGENCY.pricing : AGENCY.shopping;
        expect(await stack.airlines.YY.orderIds(chosenOffer!.shoppingResponseId, intentAgency)).toEqual([
          order!.orderId,
        ]);
      }

      // In their shop: ZZ left out of the choice, saying why; nothing after the shop at ZZ.
      for (const handle of shopping) {
        const { state: done } = await handle.result();
        expect(trail(done)).toEqual(['shop@ZZ:failed', 'shop@YY:ok', ...AT_YY]);
        expect(['AIRLINE_UNAVAILABLE', 'AIRLINE_TRANSIENT']).toContain(done.steps[0]!.failure);
        expect(done.airlines).toEqual([
          { airline: 'YY', total: { value: expect.any(String), currency: 'GBP' }, chosen: true, why: 'lowest total' },
          { airline: 'ZZ', skipped: expect.stringMatching(/^AIRLINE_UNAVAILABLE: /) },
        ]);
      }
      // In their price at ZZ: the price failed once the circuit opened, and a round at YY alone says why.
      for (const handle of pricing) {
        const { state: done } = await handle.result();
        expect(trail(done)).toEqual(['shop@ZZ:ok', 'shop@YY:ok', 'price@ZZ:failed', 'shop@YY:ok', ...AT_YY]);
        const [, , price, reshop] = done.steps;
        expect(price).toMatchObject({
          failure: 'AIRLINE_UNAVAILABLE',
          message: expect.stringMatching(/^ZZ: circuit open/),
        });
        expect(price!.attempts).toBeGreaterThanOrEqual(2);
        expect(reshop!.reason).toBe('ZZ stopped answering before an order existed: shopping YY');
      }
    },
    PATIENCE_MS * 2,
  );

  it(
    'the booking that was ordering at ZZ does not move: it settles (SETTLING) while ZZ is stopped',
    async () => {
      const settling = await untilState(ordering, (s) => s.status === 'SETTLING');
      expect(trail(settling).slice(0, 6)).toEqual([
        'shop@ZZ:ok',
        'shop@YY:ok',
        'price@ZZ:ok',
        'tokenise@ZZ:ok',
        'repriceWithToken@ZZ:ok',
        'createOrder@ZZ:failed',
      ]);
      expect(settling.steps[5]!.failure).toBe('ORDER_OUTCOME_UNKNOWN');
      expect(settling.airline).toBe('ZZ');
      expect(settling.settling!.lookupIds).toContain(settling.chosenOffer!.shoppingResponseId);
    },
    PATIENCE_MS,
  );

  it(
    "ZZ's circuit is open in health and metrics; a booking started meanwhile skips ZZ without a retry",
    async () => {
      const health = await untilHealth((h) => h.airlines.ZZ!.circuit.state === 'open');
      expect(health.status).toBe('ok');
      expect(health.airlines.YY!.circuit).toEqual({ state: 'closed', consecutiveFailures: 0, opens: 0 });
      const later = await book('later', AGENCY.later);
      const metrics = await pollUntil(
        () => stack.metrics(),
        (text) => sampleSum(text, 'ndc_saga_airline_circuit_state', { airline: 'ZZ' }) === 2,
        PATIENCE_MS,
      );
      expect(sampleSum(metrics, 'ndc_saga_airline_circuit_opens_total', { airline: 'ZZ' })).toBeGreaterThanOrEqual(1);
      expect(sampleSum(metrics, 'ndc_saga_airline_circuit_state', { airline: 'YY' })).toBe(0);

      const { state: done } = await later.result();
      expect({ status: done.status, airline: done.airline }).toEqual({ status: 'CONFIRMED', airline: 'YY' });
      expect(trail(done)).toEqual(['shop@ZZ:failed', 'shop@YY:ok', ...AT_YY]);
      // Refused by the open circuit, unsent: one attempt, no retry spent on ZZ.
      expect(done.steps[0]).toMatchObject({
        attempts: 1,
        failure: 'AIRLINE_UNAVAILABLE',
        message: expect.stringMatching(/^ZZ: circuit open after repeated failures; not called until /),
      });
      const refused = sampleSum(await stack.metrics(), 'ndc_saga_airline_call_duration_seconds_count', {
        airline: 'ZZ',
        outcome: 'circuit_open',
      });
      expect(refused).toBeGreaterThanOrEqual(1);
    },
    PATIENCE_MS * 2,
  );

  it(
    'ZZ resumed: the circuit closes after its open time, and the ordering booking reads its order back, one order',
    async () => {
      const zz = stack.airlines.ZZ;
      zz.thaw();
      await zz.clearFaults();
      const closed = await untilHealth((h) => h.airlines.ZZ!.circuit.state === 'closed');
      expect(closed.airlines.ZZ!.circuit).toEqual({
        state: 'closed',
        consecutiveFailures: 0,
        opens: expect.any(Number),
      });
      const { opens } = closed.airlines.ZZ!.circuit;
      expect(opens).toBeGreaterThanOrEqual(1);
      const metrics = await stack.metrics();
      expect(sampleSum(metrics, 'ndc_saga_airline_circuit_state', { airline: 'ZZ' })).toBe(0);
      expect(sampleSum(metrics, 'ndc_saga_airline_circuit_opens_total', { airline: 'ZZ' })).toBe(opens);

      const { state: done } = await ordering.result();
      expect({ status: done.status, airline: done.airline }).toEqual({ status: 'CONFIRMED', airline: 'ZZ' });
      const steps = trail(done);
      expect(steps.filter((step) => step.startsWith('createOrder'))).toEqual(['createOrder@ZZ:failed']);
      expect(steps.slice(6, -2).every((step) => step.startsWith('reconcileOrder@ZZ:'))).toBe(true);
      expect(steps.slice(-2)).toEqual(['reconcileOrder@ZZ:ok', 'retrieveOrder@ZZ:ok']);
      expect(await zz.orderIds(done.chosenOffer!.shoppingResponseId, AGENCY.ordering)).toEqual([done.order!.orderId]);
    },
    PATIENCE_MS * 2,
  );
});
