/**
 * Durability and card-data protection of the booking workflow on a real Temporal dev server:
 * a worker stopped mid-saga is replaced and the booking finishes; the history holds no card data
 * in clear (checked through the SDK and through `temporal workflow show --output json`).
 */
import { Context } from '@temporalio/activity';
import type { Payload } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import { EncryptionCodec, loadPayloadKey } from '../../src/temporal/payload-codec';
import type { bookingWorkflow as BookingWorkflowFn } from '../../workflows';
import { workflowHistoryJson } from '../support/temporal-env';
import {
  attempt,
  createHarness,
  createTestWorker,
  delegatingActivities,
  happyMocks,
  offer,
  oneWayIntent,
  pollUntil,
  stepTrail,
  TEST_CARD_NUMBER,
  TEST_CVV,
  type Harness,
} from './booking.fixtures';

const ENCRYPTED = Buffer.from('binary/encrypted').toString('base64');

/** Every `{metadata, data}` payload object found in a proto-JSON history. */
function payloadsOf(node: unknown, found: { metadata: Record<string, string>; data?: string }[] = []) {
  if (Array.isArray(node)) node.forEach((item) => payloadsOf(item, found));
  else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    if (typeof record.metadata === 'object' && record.metadata !== null && 'encoding' in record.metadata) {
      found.push(record as { metadata: Record<string, string>; data?: string });
    }
    Object.values(record).forEach((value) => payloadsOf(value, found));
  }
  return found;
}

/** Card data visible in `text` or in any base64 string of it (payload data are base64 in JSON). */
function cardDataIn(text: string): string[] {
  const leaks: string[] = [];
  const decodedStrings = [...text.matchAll(/"([A-Za-z0-9+/=]{8,})"/g)].map((m) =>
    Buffer.from(m[1]!, 'base64').toString('latin1'),
  );
  for (const candidate of [text, ...decodedStrings]) {
    if (candidate.includes(TEST_CARD_NUMBER)) leaks.push('card number');
    if (candidate.includes('verificationCode') || candidate.includes(`"${TEST_CVV}"`)) leaks.push('CVV');
  }
  return leaks;
}

describe('booking durability and card-data protection', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await createHarness('booking-durable');
  });

  afterAll(async () => {
    await harness.close();
  });

  it('keeps card number and CVV out of the history (SDK fetch and CLI show), all payloads encrypted', async () => {
    const mocks = happyMocks();
    const worker = await createTestWorker(
      harness,
      delegatingActivities(() => mocks),
    );
    const workflowId = `${harness.taskQueue}-leak`;
    await worker.runUntil(async () => {
      const handle = await harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
        taskQueue: harness.taskQueue,
        workflowId,
        args: [oneWayIntent()],
      });
      expect((await handle.result()).state.status).toBe('CONFIRMED');
    });
    // The card did travel: the tokenise activity received it (decrypted by the worker).
    expect(mocks.tokenise.mock.calls[0]![0].card.number).toBe(TEST_CARD_NUMBER);

    // 1. Through the SDK (raw, undecoded payloads).
    const history = await harness.client.workflow.getHandle(workflowId).fetchHistory();
    const rawPayloads: Payload[] = [];
    const walk = (node: unknown): void => {
      if (node instanceof Uint8Array) {
        const bytes = Buffer.from(node);
        expect([bytes.includes(TEST_CARD_NUMBER), bytes.includes('verificationCode')]).toEqual([false, false]);
        return;
      }
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        const record = node as Record<string, unknown>;
        if (record.metadata !== undefined && record.data instanceof Uint8Array) rawPayloads.push(record as Payload);
        Object.values(record).forEach(walk);
      }
    };
    walk(history);
    expect(rawPayloads.length).toBeGreaterThan(10);

    // Positive control: decrypting the workflow input reveals the card, so the scan would see it.
    const started = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    const [clear] = await new EncryptionCodec(loadPayloadKey()).decode([started as Payload]);
    expect(Buffer.from(clear!.data!).toString('utf8')).toContain(TEST_CARD_NUMBER);

    // 2. Through the CLI, as an operator would look at it.
    const stdout = await workflowHistoryJson(workflowId, harness.namespace);
    expect(cardDataIn(stdout)).toEqual([]);
    const payloads = payloadsOf(JSON.parse(stdout));
    const notEncrypted = payloads.filter((p) => p.metadata.encoding !== ENCRYPTED);
    // Only search attribute values are stored readable: our Keyword strings, and the SDK's
    // TemporalChangeVersion (KeywordList of patch ids, e.g. "webhook-events").
    const searchAttributeTypes = ['Keyword', 'KeywordList'].map((t) => Buffer.from(t).toString('base64'));
    for (const payload of notEncrypted) {
      expect(searchAttributeTypes).toContain(payload.metadata.type ?? searchAttributeTypes[0]);
    }
    expect(payloads.length - notEncrypted.length).toBeGreaterThan(10);
    // The scanner finds a clear card in a history-shaped text: it can fail.
    expect(
      cardDataIn(JSON.stringify({ data: Buffer.from(`{"number":"${TEST_CARD_NUMBER}"}`).toString('base64') })),
    ).toEqual(['card number']);
  });

  it('finishes the booking when the worker is stopped mid-saga and another one takes over', async () => {
    // Worker 1 hangs in the shop activity until it is shut down.
    let entered = false;
    const first = happyMocks();
    first.shop.mockImplementation(async () => {
      entered = true;
      await Context.current().cancelled;
      throw new Error('unreachable');
    });
    // Its own task queue: a poll left over by the previous test's stopped worker could otherwise
    // swallow a task and delay this test by a task timeout.
    const taskQueue = `${harness.taskQueue}-restart`;
    const worker1: Worker = await createTestWorker(
      harness,
      delegatingActivities(() => first),
      {
        taskQueue,
        shutdownGraceTime: '100ms',
        maxCachedWorkflows: 0,
      },
    );
    const running1 = worker1.run();
    const handle = await harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
      taskQueue,
      workflowId: `${harness.taskQueue}-restart`,
      args: [oneWayIntent()],
    });
    await pollUntil(
      async () => entered,
      (value) => value,
    );
    worker1.shutdown();
    await running1;
    // No worker now: the booking waits on the server, nothing is lost.
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(first.createOrder).not.toHaveBeenCalled();

    // Worker 2 (a restarted process) picks the saga up where it was.
    const second = happyMocks();
    second.shop.mockImplementation(async () => ({
      shoppingResponseId: 'SHOP-AFTER-RESTART',
      offers: [offer('OF-ECO', 0, 'ECONOMY', '100.00')],
      attempt: attempt(),
    }));
    const worker2 = await createTestWorker(
      harness,
      delegatingActivities(() => second),
      { taskQueue },
    );
    const startedAt = Date.now();
    const result = await worker2.runUntil(handle.result());
    // Picked up within seconds (the retry backoff), not after a timeout.
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(result.state.status).toBe('CONFIRMED');
    expect(result.state.chosenOffer?.shoppingResponseId).toBe('SHOP-AFTER-RESTART');
    // The shop step ran twice in Temporal's eyes: attempt 1 lost with worker 1, attempt 2 on worker 2.
    expect(stepTrail(result.state)[0]).toBe('shop:ok:2');
    expect(second.createOrder).toHaveBeenCalledTimes(1);
  });
  it('respects the airline rate limit (maxTaskQueueActivitiesPerSecond) across concurrent bookings', async () => {
    const rps = 4;
    const starts: number[] = [];
    const mocks = happyMocks();
    const activities = delegatingActivities(() => mocks);
    const timed = Object.fromEntries(
      Object.entries(activities).map(([name, fn]) => [
        name,
        (input: never) => {
          starts.push(Date.now());
          return (fn as (input: never) => Promise<unknown>)(input);
        },
      ]),
    ) as unknown as typeof activities;
    const taskQueue = `${harness.taskQueue}-rate`;
    const worker = await createTestWorker(harness, timed, { taskQueue, maxTaskQueueActivitiesPerSecond: rps });
    await worker.runUntil(async () => {
      const handles = await Promise.all(
        [0, 1, 2].map((i) =>
          harness.client.workflow.start<typeof BookingWorkflowFn>('bookingWorkflow', {
            taskQueue,
            workflowId: `${taskQueue}-${i}`,
            args: [oneWayIntent()],
          }),
        ),
      );
      for (const handle of handles) expect((await handle.result()).state.status).toBe('CONFIRMED');
    });
    // 3 bookings x 6 activities at 4/s; unthrottled they all start within well under 1 s. The
    // server's limiter is a token bucket: it lets a burst through (observed up to 6 starts in a
    // second), then holds the average. Observed: 18 starts spread over 4.8-6.9 s.
    expect(starts).toHaveLength(18);
    const spreadMs = Math.max(...starts) - Math.min(...starts);
    const burst = 2 * rps;
    expect(spreadMs).toBeGreaterThanOrEqual(((starts.length - burst) / rps) * 1000 * 0.9);
  });
});
