/**
 * Prometheus metrics building blocks on prom-client: one registry per process (never the global
 * one, so tests and several components in one process do not collide), with the Node.js process
 * metrics, and the text exposition served by {@link startOpsServer} (ops-server.ts).
 *
 * Metric names: `ndc_saga_<what>_<unit>` (`_total` for counters, `_seconds` for durations), as
 * Prometheus recommends. Labels are low-cardinality: never a booking id or an agency id.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export { Counter, Gauge, Histogram, Registry };

/** Prefix of every metric of ours. */
export const METRIC_PREFIX = 'ndc_saga_';

/** Buckets (seconds) of request/step durations: 5 ms to 60 s. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Options of {@link createMetricsRegistry}. */
export interface MetricsRegistryOptions {
  /** Process role, added as label `service` to every metric (`worker`, `api`, `airline`). */
  service: string;
  /** Collect the Node.js process metrics (`ndc_saga_process_*`, `ndc_saga_nodejs_*`). Default `true`. */
  processMetrics?: boolean;
}

/** A registry for one process, labelled with its role. */
export function createMetricsRegistry(options: MetricsRegistryOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return registry;
}

/** Reads a port variable: unset gives `fallback`, `off` gives `undefined` (disabled), `0` a free port. */
export function portFromEnv(
  name: string,
  fallback: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'off') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name}: must be a TCP port (0-65535) or "off", got "${raw}"`);
  return port;
}
