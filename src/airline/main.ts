/**
 * `npm run airline`: the airline retail service alone. Configuration from the
 * environment (see docs/airline-service.md); exits with a message naming the
 * variable when it is invalid.
 *
 * Observability (docs/operations.md): JSON logs (LOG_LEVEL, LOG_FORMAT; AIRLINE_LOG
 * when LOG_LEVEL is unset), Prometheus `/metrics` on AIRLINE_METRICS_PORT (default
 * 9466; `off`, or 0 for a free port), OpenTelemetry server spans when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import 'reflect-metadata';
import { createNestRoleLoggerFromEnv, portFromEnv, setupTracing, startOpsServer } from '../common/observability';
import { AirlineConfigError, loadAirlineConfig } from './airline.config';
import { createAirlineApp } from './airline.module';
import { createAirlineMetrics } from './observability/airline.observability';
import { endWithParent } from '../common/end-with-parent';

/** Default port of the airline's `/metrics` (AIRLINE_METRICS_PORT). */
export const DEFAULT_AIRLINE_METRICS_PORT = 9466;

async function main(): Promise<void> {
  endWithParent();
  let config;
  try {
    config = loadAirlineConfig();
  } catch (err) {
    if (err instanceof AirlineConfigError) {
      process.stderr.write(`airline: invalid configuration: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const metricsPort = portFromEnv('AIRLINE_METRICS_PORT', DEFAULT_AIRLINE_METRICS_PORT);
  const logger = createNestRoleLoggerFromEnv('airline', { variable: 'AIRLINE_LOG', levels: config.logLevels });
  const tracing = setupTracing({ service: 'airline' });
  const metrics = createAirlineMetrics();
  const app = await createAirlineApp(config, { logger, metrics });
  app.enableShutdownHooks();
  await app.listen(config.port);
  const ops =
    metricsPort === undefined
      ? undefined
      : await startOpsServer({
          port: metricsPort,
          host: process.env.AIRLINE_METRICS_HOST?.trim() || '0.0.0.0',
          registry: metrics.registry,
          health: false,
        });
  const stopObservability = async (): Promise<void> => {
    await ops?.close();
    await tracing?.shutdown();
  };
  process.once('SIGTERM', () => void stopObservability());
  process.once('SIGINT', () => void stopObservability());
  const url = await app.getUrl();
  logger.info(
    { url, metrics: ops !== undefined ? `${ops.url}/metrics` : 'off', tracing: tracing !== undefined ? 'otlp' : 'off' },
    `airline ${config.airlineCode} listening on ${url} (retail /retail, payment /payment/tokens, db ${config.dbPath}), ` +
      `metrics ${ops !== undefined ? `${ops.url}/metrics` : 'off'}`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`airline: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
