import { CircuitBreaker } from '../ndc-client';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from '../temporal/search-attributes';
import type { CredentialsCheck } from './airline-credentials';
import { airlineHealth, liveness, readiness, type WorkerProbeSource } from './worker.health';

type NativeConnection = WorkerProbeSource['connection'];

/** A connection whose server answers and has every booking search attribute. */
const answering = {
  withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
  workflowService: { getSystemInfo: () => Promise.resolve({}) },
  operatorService: {
    listSearchAttributes: () =>
      Promise.resolve({ customAttributes: Object.fromEntries(BOOKING_SEARCH_ATTRIBUTE_KEYS.map((k) => [k.name, 1])) }),
  },
} as unknown as NativeConnection;

const accepted: CredentialsCheck = { status: 'accepted', checkedAt: '2026-01-01T00:00:00.000Z' };
const unreachable: CredentialsCheck = {
  status: 'unreachable',
  checkedAt: '2026-01-01T00:00:00.000Z',
  detail: 'connect ECONNREFUSED 127.0.0.1:9',
};

/** ZZ's circuit forced open (two failures in a row at threshold 2, at 00:00:10Z), YY's closed, XX without one. */
function servedAirlines() {
  const now = () => Date.parse('2026-01-01T00:00:10.000Z');
  const zz = new CircuitBreaker('ZZ', { failureThreshold: 2, openMs: 30_000, now });
  zz.failure();
  zz.failure();
  return [
    { code: 'ZZ', credentials: { current: () => unreachable }, circuit: zz },
    { code: 'YY', credentials: { current: () => accepted }, circuit: new CircuitBreaker('YY', { now }) },
    { code: 'XX', credentials: { current: () => accepted }, circuit: undefined },
  ];
}

const airlines = {
  ZZ: {
    credentials: unreachable,
    circuit: { state: 'open', consecutiveFailures: 2, openedAt: '2026-01-01T00:00:10.000Z', opens: 1 },
  },
  YY: { credentials: accepted, circuit: { state: 'closed', consecutiveFailures: 0, opens: 0 } },
  XX: { credentials: accepted },
};

describe('worker health', () => {
  it("shows each airline's credentials and circuit (none when the profile has no breaker)", () => {
    expect(airlineHealth(servedAirlines())()).toStrictEqual(airlines);
  });

  it("ready (200) while an airline's circuit is open: the airline is down, not the worker", async () => {
    const result = await readiness({
      state: () => 'RUNNING',
      connection: answering,
      namespace: 'default',
      airlines: airlineHealth(servedAirlines()),
    });
    expect(result).toStrictEqual({
      ok: true,
      status: 'ok',
      details: { worker: 'RUNNING', temporal: { status: 'up', searchAttributes: 'up' }, airlines },
    });
  });

  it('not ready while the worker starts, or when Temporal does not answer; the airlines still shown', async () => {
    const source = { connection: answering, namespace: 'default', airlines: airlineHealth(servedAirlines()) };
    expect(await readiness({ ...source, state: () => undefined })).toStrictEqual({
      ok: false,
      status: 'unavailable',
      details: { worker: 'STARTING', temporal: { status: 'up', searchAttributes: 'up' }, airlines },
    });
    const down = {
      ...answering,
      withDeadline: () => Promise.reject(new Error('deadline exceeded')),
    } as unknown as NativeConnection;
    expect(await readiness({ ...source, connection: down, state: () => 'RUNNING' })).toStrictEqual({
      ok: false,
      status: 'unavailable',
      details: { worker: 'RUNNING', temporal: { status: 'down', error: 'deadline exceeded' }, airlines },
    });
  });

  it('not ready when the namespace lacks a booking search attribute, naming it', async () => {
    const missing = {
      ...answering,
      operatorService: { listSearchAttributes: () => Promise.resolve({ customAttributes: {} }) },
    } as unknown as NativeConnection;
    const result = await readiness({
      state: () => 'RUNNING',
      connection: missing,
      namespace: 'default',
      airlines: () => ({}),
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'unavailable',
      details: { temporal: { status: 'down', missing: BOOKING_SEARCH_ATTRIBUTE_KEYS.map((k) => k.name) } },
    });
  });

  it('live unless FAILED or STOPPED', () => {
    expect(liveness({ state: () => undefined })).toStrictEqual({
      ok: true,
      status: 'ok',
      details: { worker: 'STARTING' },
    });
    expect(liveness({ state: () => 'RUNNING' }).ok).toBe(true);
    expect(liveness({ state: () => 'FAILED' })).toStrictEqual({
      ok: false,
      status: 'unavailable',
      details: { worker: 'FAILED' },
    });
    expect(liveness({ state: () => 'STOPPED' }).ok).toBe(false);
  });
});
