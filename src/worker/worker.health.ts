/**
 * The worker's probes (docs/operations.md, "Health"):
 * - liveness: the SDK worker is neither FAILED nor STOPPED;
 * - readiness: the worker RUNS, Temporal answers within {@link READY_PROBE_TIMEOUT_MS} and the
 *   namespace has the booking search attributes (else 503). Each airline's credentials check and
 *   circuit breaker are shown beside (`airlines`) and never make the worker unready: an airline
 *   that is down or refuses the worker is that airline's outage, the others still book, and no
 *   restart of the worker mends it.
 */
import type { NativeConnection, State } from '@temporalio/worker';
import type { ProbeResult } from '../common/observability';
import type { CircuitBreaker, CircuitSnapshot } from '../ndc-client';
import { probeSearchAttributes, type SearchAttributeHealth } from '../temporal/search-attributes.check';
import type { AirlineCredentials, CredentialsCheck } from './airline-credentials';

/** How long the readiness probe waits for Temporal, ms. */
export const READY_PROBE_TIMEOUT_MS = 2000;

/** What the health shows of one airline. */
export interface AirlineHealth {
  credentials: CredentialsCheck;
  /** Its circuit breaker; absent when the profile has none (`circuitBreaker: false`). */
  circuit?: CircuitSnapshot;
}

/** One airline the worker serves, as its health reads it. */
export interface ServedAirline {
  code: string;
  credentials: Pick<AirlineCredentials, 'current'>;
  circuit: CircuitBreaker | undefined;
}

/** What the probes read of the worker process. */
export interface WorkerProbeSource {
  /** The SDK worker's state; undefined while it is being created. */
  state: () => State | undefined;
  connection: NativeConnection;
  namespace: string;
  /** Each airline's health ({@link airlineHealth}). */
  airlines: () => Record<string, AirlineHealth>;
}

/** Each airline's credentials (the last check) and circuit breaker, read when asked. */
export function airlineHealth(airlines: readonly ServedAirline[]): () => Record<string, AirlineHealth> {
  return () =>
    Object.fromEntries(
      airlines.map(({ code, credentials, circuit }) => [
        code,
        { credentials: credentials.current(), ...(circuit !== undefined ? { circuit: circuit.snapshot() } : {}) },
      ]),
    );
}

/** Liveness: ok unless the worker FAILED or STOPPED. */
export function liveness(source: Pick<WorkerProbeSource, 'state'>): ProbeResult {
  const worker = source.state() ?? 'STARTING';
  const ok = worker !== 'FAILED' && worker !== 'STOPPED';
  return { ok, status: ok ? 'ok' : 'unavailable', details: { worker } };
}

/** Readiness: see the module comment. */
export async function readiness(source: WorkerProbeSource): Promise<ProbeResult> {
  const worker = source.state() ?? 'STARTING';
  const temporal = await temporalHealth(source.connection, source.namespace);
  const ok = temporal.status === 'up' && worker === 'RUNNING';
  return { ok, status: ok ? 'ok' : 'unavailable', details: { worker, temporal, airlines: source.airlines() } };
}

/** Temporal answers, and whether the namespace has the booking search attributes. */
async function temporalHealth(
  connection: NativeConnection,
  namespace: string,
): Promise<{ status: 'up' | 'down' } & Record<string, unknown>> {
  let attributes: SearchAttributeHealth;
  try {
    const deadline = Date.now() + READY_PROBE_TIMEOUT_MS;
    await connection.withDeadline(deadline, () => connection.workflowService.getSystemInfo({}));
    attributes = await connection.withDeadline(deadline, () => probeSearchAttributes(connection, namespace));
  } catch (error) {
    return { status: 'down', error: (error as Error).message };
  }
  if (attributes.status === 'down') return { ...attributes, status: 'down' };
  return { status: 'up', searchAttributes: attributes.status };
}
