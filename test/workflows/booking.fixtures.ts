/**
 * Shared fixtures of the workflow tests: an intent, canned activity results, a mocked activity set
 * typed as the real activities, and a worker harness on the jest global Temporal dev server.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type {
  BookingActivities,
  OfferSummary,
  OrderSummary,
  PriceResult,
} from '../../activities/booking.activities.types';
import type { BookingIntent, CardIntent, BookingState } from '../../src/booking/booking.model';
import { createStatusSignalActivities } from '../../activities/status-signal.activities';
import { createDataConverter } from '../../src/temporal/data-converter';
import { WORKFLOWS_PATH } from '../../src/worker/worker';
import {
  temporalTestAddress,
  temporalTestNamespace,
  uniqueTaskQueue,
  workflowHistoryJson,
} from '../support/temporal-env';

/** The test card (credit, surcharge) and its CVV: must never appear in clear in a history. */
export const TEST_CARD_NUMBER = '4111111111111111';
export const TEST_CVV = '737';

export function oneWayIntent(
  overrides: Omit<Partial<BookingIntent>, 'payment'> & Partial<Pick<CardIntent, 'payment'>> = {},
): CardIntent {
  return {
    agency: { id: 'AG001', name: 'Test Agency' },
    pointOfSale: 'GB',
    currency: 'GBP',
    language: 'EN',
    journey: { origin: 'LGW', destination: 'OSL', departureDate: '2027-03-10' },
    passengers: [
      { type: 'ADT', title: 'MR', givenName: 'Ada', surname: 'Lovelace', birthdate: '1985-12-10', contactId: 'CTC1' },
    ],
    contacts: [
      { id: 'CTC1', emails: ['ada@example.test'], phones: [{ countryDialingCode: '44', number: '7700900001' }] },
    ],
    payment: {
      card: {
        number: TEST_CARD_NUMBER,
        name: 'Ada Lovelace',
        expirationYear: 2030,
        expirationMonth: 12,
        verificationCode: TEST_CVV,
        address: { addressLine1: '1 Test Street', postalCode: 'RH6 0NP', cityName: 'Crawley', countryCode: 'GB' },
      },
    },
    securePayment: {
      failUrl: 'https://agency.example.test/fail',
      termUrl: 'https://agency.example.test/ok',
      ipAddress: '192.0.2.10',
      userAgent: 'jest',
    },
    ...overrides,
  };
}

export function offer(offerId: string, direction: number, priceClass: string, total: string): OfferSummary {
  return {
    offerId,
    owner: 'ZZ',
    direction,
    priceClass,
    priceClassName: priceClass.charAt(0) + priceClass.slice(1).toLowerCase(),
    total: { value: total, currency: 'GBP' },
    offerItems: [{ offerItemId: `${offerId}-ITEM1`, passengerRefs: ['PAX__ADT01'] }],
  };
}

export function priced(responseId: string, total: string, surcharge?: string): Omit<PriceResult, 'attempt'> {
  return {
    responseId,
    offerId: 'PRICED-1',
    owner: 'ZZ',
    total: { value: total, currency: 'GBP' },
    ...(surcharge !== undefined ? { surcharge: { value: surcharge, currency: 'GBP' } } : {}),
    offerItems: [{ offerItemId: 'PRICED-1-ITEM1', passengerRefs: ['PAX__ADT01'] }],
  };
}

export const ORDER: OrderSummary = {
  orderId: 'ORDER-1',
  owner: 'ZZ',
  bookingReference: 'ABC123',
  total: { value: '103.02', currency: 'GBP' },
  status: 'OK',
};

export const ORDER_VIEW_XML = '<OrderViewRS Version="17.2"><Success/></OrderViewRS>';

/** The attempt number of the running activity (what the real activities report). */
export function attempt(): number {
  return Context.current().info.attempt;
}

/**
 * An order create or cancel whose outcome at the airline is unknown (`reason`: timeout, reset),
 * as the real activities throw it: the workflow settles it by reading the order back.
 */
export function outcomeUnknown(operation: 'create' | 'cancel', reason: string): ApplicationFailure {
  return ApplicationFailure.create({
    message: `order ${operation} outcome unknown: ${reason}`,
    type: operation === 'create' ? 'ORDER_OUTCOME_UNKNOWN' : 'CANCEL_OUTCOME_UNKNOWN',
    details: [{ attempt: 1 }],
  });
}

/**
 * A business refusal of the airline as the real activities throw it: not retried, `type` the
 * failure type, the NDC error `airlineCode` in the message and the details.
 */
export function refusedByAirline(type: string, airlineCode: string, text: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${airlineCode}: ${text}`, type, { airlineCode, attempt: 1 });
}

/** A shop activity answer: `offers` under `shoppingResponseId`, at the running attempt. */
export function shopped(shoppingResponseId: string, ...offers: OfferSummary[]) {
  return { shoppingResponseId, offers, attempt: attempt() };
}

export type ActivityMocks = { [K in keyof BookingActivities]: jest.MockedFunction<BookingActivities[K]> };

/** A jest mock typed as the activity `F`. */
function mockFn<F extends (...args: never[]) => unknown>(impl: F): jest.MockedFunction<F> {
  return jest.fn(impl) as unknown as jest.MockedFunction<F>;
}

/** Mocks answering the happy path of a one-way booking. */
export function happyMocks(): ActivityMocks {
  return {
    calendar: mockFn<BookingActivities['calendar']>(async () => ({ prices: [], attempt: attempt() })),
    shop: mockFn<BookingActivities['shop']>(async () =>
      shopped('SHOP-1', offer('OF-ECO', 0, 'ECONOMY', '100.00'), offer('OF-PLUS', 0, 'PLUS', '150.00')),
    ),
    price: mockFn<BookingActivities['price']>(async () => ({ ...priced('PRICE-1', '100.00'), attempt: attempt() })),
    tokenise: mockFn<BookingActivities['tokenise']>(async () => ({ tokenId: 'TOKEN-1', attempt: attempt() })),
    repriceWithToken: mockFn<BookingActivities['repriceWithToken']>(async () => ({
      ...priced('PRICE-2', '103.02', '3.02'),
      attempt: attempt(),
    })),
    createOrder: mockFn<BookingActivities['createOrder']>(async () => ({ order: ORDER, attempt: attempt() })),
    customerInput: mockFn<BookingActivities['customerInput']>(async () => ({ order: ORDER, attempt: attempt() })),
    reconcileOrder: mockFn<BookingActivities['reconcileOrder']>(async () => ({ attempt: attempt() })),
    retrieveOrder: mockFn<BookingActivities['retrieveOrder']>(async () => ({
      order: ORDER,
      orderViewXml: ORDER_VIEW_XML,
      attempt: attempt(),
    })),
    cancelOrder: mockFn<BookingActivities['cancelOrder']>(async () => ({
      orderReference: 'ORDER-1',
      refund: { value: '103.02', currency: 'GBP' },
      attempt: attempt(),
    })),
    listServices: mockFn<BookingActivities['listServices']>(async () => ({ options: [], attempt: attempt() })),
    readSeatMaps: mockFn<BookingActivities['readSeatMaps']>(async () => ({ attempt: attempt() })),
    reshopChange: notMocked('reshopChange'),
    quoteRefund: notMocked('quoteRefund'),
    repriceOrder: notMocked('repriceOrder'),
    changeOrder: notMocked('changeOrder'),
    listOrderServices: notMocked('listOrderServices'),
    readOrderSeatMaps: notMocked('readOrderSeatMaps'),
    orderReadPermit: mockFn<BookingActivities['orderReadPermit']>(async () => ({ attempt: attempt() })),
  };
}

/** A servicing activity a test did not mock: fails at once, naming it (never retried). */
function notMocked<K extends keyof BookingActivities>(name: K): jest.MockedFunction<BookingActivities[K]> {
  return mockFn<BookingActivities[K]>((async () => {
    throw ApplicationFailure.nonRetryable(`activity ${name} is not mocked in this test`, 'NOT_MOCKED');
  }) as unknown as BookingActivities[K]);
}

/**
 * Activities registered on the worker: each delegates to the current mock, so one worker serves
 * every test of a file.
 */
export function delegatingActivities(current: () => ActivityMocks): BookingActivities {
  return {
    calendar: (input) => current().calendar(input),
    shop: (input) => current().shop(input),
    price: (input) => current().price(input),
    tokenise: (input) => current().tokenise(input),
    repriceWithToken: (input) => current().repriceWithToken(input),
    createOrder: (input) => current().createOrder(input),
    customerInput: (input) => current().customerInput(input),
    reconcileOrder: (input) => current().reconcileOrder(input),
    retrieveOrder: (input) => current().retrieveOrder(input),
    cancelOrder: (input) => current().cancelOrder(input),
    listServices: (input) => current().listServices(input),
    readSeatMaps: (input) => current().readSeatMaps(input),
    reshopChange: (input) => current().reshopChange(input),
    quoteRefund: (input) => current().quoteRefund(input),
    repriceOrder: (input) => current().repriceOrder(input),
    changeOrder: (input) => current().changeOrder(input),
    listOrderServices: (input) => current().listOrderServices(input),
    readOrderSeatMaps: (input) => current().readOrderSeatMaps(input),
    orderReadPermit: () => current().orderReadPermit(),
  };
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The workflow bundle, built once per test file (webpack takes a few seconds). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  return bundle;
}

/** Drops every entry (webpack's progress is noise in test output). */
const quietLogger = new DefaultLogger('ERROR', () => undefined);

/** A client and worker connection on the test server, and a fresh task queue. */
export interface Harness {
  client: Client;
  connection: Connection;
  nativeConnection: NativeConnection;
  taskQueue: string;
  namespace: string;
  close(): Promise<void>;
}

/** Keeps test output readable: the SDK logs at ERROR only (set TEMPORAL_TEST_LOG=INFO to see more). */
export function quietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_TEST_LOG as 'INFO' | undefined) ?? 'ERROR') });
  } catch {
    // Already installed in this process.
  }
}

export async function createHarness(prefix: string): Promise<Harness> {
  quietRuntime();
  const address = temporalTestAddress();
  const namespace = temporalTestNamespace();
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  const client = new Client({ connection, namespace, dataConverter: createDataConverter() });
  return {
    client,
    connection,
    nativeConnection,
    taskQueue: uniqueTaskQueue(prefix),
    namespace,
    async close() {
      await nativeConnection.close();
      await connection.close();
    },
  };
}

/** Where a worker of the harness polls: its connection, namespace and task queue. */
export function onHarness(harness: Harness): { connection: NativeConnection; namespace: string; taskQueue: string } {
  return { connection: harness.nativeConnection, namespace: harness.namespace, taskQueue: harness.taskQueue };
}

/** Creates a worker with the given activities on the harness's task queue. */
export async function createTestWorker(
  harness: Harness,
  activities: BookingActivities,
  extra: Partial<Parameters<typeof Worker.create>[0]> = {},
): Promise<Worker> {
  return Worker.create({
    connection: harness.nativeConnection,
    namespace: harness.namespace,
    taskQueue: harness.taskQueue,
    workflowBundle: await workflowBundle(),
    // The local activities that tell the webhook registry and the batch, as the product worker has them.
    activities: { ...createStatusSignalActivities(), ...activities },
    dataConverter: createDataConverter(),
    ...extra,
  });
}

/** Polls `probe` until it returns a value accepted by `done`, or fails at the deadline. */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await probe();
      if (done(last)) return last;
    } catch {
      // Not ready yet (e.g. the workflow's first task has not run).
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Step names of a state, in order, with their outcome. */
export function stepTrail(state: BookingState): string[] {
  return state.steps.map((s) => `${s.name}:${s.outcome ?? 'running'}:${s.attempts}`);
}

/** {@link stepTrail} without the attempt counts: `name:outcome`. */
export function stepOutcomes(state: BookingState): string[] {
  return stepTrail(state).map((s) => s.split(':').slice(0, 2).join(':'));
}

/** The steps of a one-way booking that goes straight through, in order. */
export const BOOKING_STEPS: readonly string[] = [
  'shop',
  'price',
  'tokenise',
  'repriceWithToken',
  'createOrder',
  'retrieveOrder',
];

/** {@link stepTrail} of a booking whose every step succeeded at its first attempt. */
export const FIRST_TIME_TRAIL: readonly string[] = BOOKING_STEPS.map((name) => `${name}:ok:1`);

/**
 * {@link stepOutcomes} of a booking whose order create was refused (offer expired, seats gone):
 * shopped and priced again, the card token reused, then ordered.
 */
export const RESHOP_AFTER_ORDER_REFUSED: readonly string[] = [
  'shop:ok',
  'price:ok',
  'tokenise:ok',
  'repriceWithToken:ok',
  'createOrder:failed',
  'shop:ok',
  'price:ok',
  'repriceWithToken:ok',
  'createOrder:ok',
  'retrieveOrder:ok',
];

/** Holds the activity mocks that {@link ActivityGate.pass} it until {@link ActivityGate.release}. */
export interface ActivityGate {
  /** Marks the gate reached and waits for the release. */
  pass(): Promise<void>;
  /** Resolves once an activity has reached the gate (fails at the poll deadline). */
  reached(): Promise<boolean>;
  release(): void;
}

export function activityGate(): ActivityGate {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let entered = false;
  return {
    async pass() {
      entered = true;
      await held;
    },
    reached: () =>
      pollUntil(
        async () => entered,
        (value) => value,
      ),
    release: () => release(),
  };
}

/** Where the histories replayed by replay.e2e-spec.ts live. */
export const HISTORIES_DIR = path.join(__dirname, 'histories');

/**
 * With RECORD_HISTORIES=1, writes the history of `workflowId` as `histories/<name>.json` and its
 * id into `histories/workflow-ids.json` (replay needs the original ids: child ids derive from
 * them); otherwise does nothing.
 */
export async function recordHistory(name: string, workflowId: string, namespace?: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const stdout = await workflowHistoryJson(workflowId, namespace);
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  fs.writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), `${JSON.stringify(JSON.parse(stdout), null, 1)}\n`);
  const indexFile = path.join(HISTORIES_DIR, 'workflow-ids.json');
  const index = fs.existsSync(indexFile)
    ? (JSON.parse(fs.readFileSync(indexFile, 'utf8')) as Record<string, string>)
    : {};
  index[name] = workflowId;
  fs.writeFileSync(indexFile, `${JSON.stringify(index, Object.keys(index).sort(), 2)}\n`);
}
