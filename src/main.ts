/**
 * `npm run api`: the booking HTTP API (port API_PORT, default 3000) against the Temporal cluster
 * of TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE (TLS settings: see docs/operations.md). Stops cleanly
 * on SIGINT/SIGTERM; SIGHUP re-reads the API keys file (it is also re-read when it changes).
 *
 * Observability (docs/operations.md): JSON logs (LOG_LEVEL, LOG_FORMAT; API_LOG when LOG_LEVEL is
 * unset), Prometheus `/metrics` on API_METRICS_PORT (default 9465; `off`, or 0 for a free port),
 * OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Client } from '@temporalio/client';
import { ApiKeyStore } from './api/auth/api-keys';
import { loadApiConfig, type ApiConfig } from './api/config/api.config';
import type { UiPayloadCodec } from './api/codec/codec.controller';
import { createApiMetrics, type ApiMetrics } from './api/observability/api.metrics';
import { apiClientInterceptors } from './api/observability/api.tracing';
import {
  createNestRoleLoggerFromEnv,
  portFromEnv,
  setupTracing,
  startOpsServer,
  type Logger as PinoLogger,
  type OpsServer,
} from './common/observability';
import { createApiApp } from './configure-app';
import {
  createTemporalClient,
  decodePayloadsForUi,
  EncryptionCodec,
  loadPayloadKey,
  loadTemporalConfig,
} from './temporal';
import { endWithParent } from './common/end-with-parent';
import { probeSearchAttributes } from './temporal/search-attributes.check';

/** Default port of the API's `/metrics` (API_METRICS_PORT). */
export const DEFAULT_API_METRICS_PORT = 9465;

/** A running API. */
export interface RunningApi {
  app: NestExpressApplication;
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** `http://host:port/metrics`, when served. */
  metricsUrl?: string;
  metrics: ApiMetrics;
  /** The API keys (undefined when no keys file is configured). */
  apiKeys?: ApiKeyStore;
  close(): Promise<void>;
}

/** The `/codec` implementation: decrypt + mask for display; encrypt. Key from PAYLOAD_ENCRYPTION_KEY. */
export function uiPayloadCodec(codec: EncryptionCodec = new EncryptionCodec(loadPayloadKey())): UiPayloadCodec {
  return {
    decode: (payloads) => decodePayloadsForUi(payloads, codec),
    encode: (payloads) => codec.encode(payloads),
  };
}

/** Observability of {@link startApi}. */
export interface StartApiOptions {
  /** Process logger. Default: JSON on stdout at the level of `config.logLevels`. */
  logger?: PinoLogger;
  /** Port of `/metrics` (0: a free one). Default: none served. */
  metricsPort?: number;
  /** Its interface. Default `0.0.0.0`. */
  metricsHost?: string;
}

/**
 * Starts the API with `config` (default: from the environment) and a client (default: a new one,
 * with the OpenTelemetry client interceptor), and its `/metrics` server when `metricsPort` is given.
 */
export async function startApi(
  config: ApiConfig = loadApiConfig(),
  client?: Client,
  options: StartApiOptions = {},
): Promise<RunningApi> {
  const ownClient = client === undefined;
  const temporalClient =
    client ?? (await createTemporalClient({ config: loadTemporalConfig(), interceptors: apiClientInterceptors() }));
  const logger = new Logger('Auth');
  let apiKeys: ApiKeyStore | undefined;
  if (config.apiKeysFile !== undefined) {
    apiKeys = new ApiKeyStore(config.apiKeysFile, (message) =>
      logger.error(`keys file not reloaded, previous keys kept: ${message}`),
    );
    apiKeys.watch();
  }
  const metrics = createApiMetrics();
  const app = await createApiApp({
    config,
    temporalClient,
    codec: uiPayloadCodec(),
    apiKeys,
    metrics,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  await app.listen(config.port, config.host);
  await checkSearchAttributesAtStart(temporalClient, new Logger('Temporal'));
  const address = app.getHttpServer().address() as { port: number };
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let ops: OpsServer | undefined;
  if (options.metricsPort !== undefined) {
    ops = await startOpsServer({
      port: options.metricsPort,
      host: options.metricsHost ?? '0.0.0.0',
      registry: metrics.registry,
      health: false,
    });
  }
  return {
    app,
    url: `http://${host}:${address.port}`,
    ...(ops !== undefined ? { metricsUrl: `${ops.url}/metrics` } : {}),
    metrics,
    ...(apiKeys !== undefined ? { apiKeys } : {}),
    close: async () => {
      await app.close();
      await ops?.close();
      if (ownClient) await temporalClient.connection.close();
    },
  };
}

/**
 * Logs, at start, what `/health/ready` will report: the namespace's missing booking search
 * attributes and the command that registers them (the API still starts; it is not ready).
 */
async function checkSearchAttributesAtStart(client: Client, logger: Logger): Promise<void> {
  try {
    const attributes = await client.withDeadline(Date.now() + 5000, () =>
      probeSearchAttributes(client.connection, client.options.namespace),
    );
    if (attributes.status === 'down') logger.error(attributes.error);
    if (attributes.status === 'unchecked')
      logger.warn(`booking search attributes not checked: ${attributes.error ?? 'listing refused'}`);
  } catch (error) {
    logger.warn(`booking search attributes not checked (Temporal: ${(error as Error).message})`);
  }
}

async function main(): Promise<void> {
  endWithParent();
  const logger = new Logger('api');
  const config = loadApiConfig();
  const tracing = setupTracing({ service: 'api' });
  const api = await startApi(config, undefined, {
    logger: createNestRoleLoggerFromEnv('api', { variable: 'API_LOG', levels: config.logLevels }),
    metricsPort: portFromEnv('API_METRICS_PORT', DEFAULT_API_METRICS_PORT),
    metricsHost: process.env.API_METRICS_HOST?.trim() || '0.0.0.0',
  });
  logger.log(
    `booking API on ${api.url} (OpenAPI: ${api.url}/docs), metrics ${api.metricsUrl ?? 'off'}, tracing ${tracing !== undefined ? 'otlp' : 'off'}`,
  );
  logger.log(
    `credentials: ${api.apiKeys !== undefined ? `${api.apiKeys.activeCount} active API key(s) in ${config.apiKeysFile}` : 'no API keys file'}; ` +
      `${config.oidc !== undefined ? `OIDC tokens of ${config.oidc.issuer}` : 'no OIDC tokens'}` +
      `${config.codecOpenOnLoopback ? '; /codec open to loopback callers (dev stack)' : ''}`,
  );
  process.on('SIGHUP', () => {
    api.apiKeys?.reload();
    logger.log(`SIGHUP: API keys re-read (${api.apiKeys?.activeCount ?? 0} active)`);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping`);
    api
      .close()
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error(`stop failed: ${(err as Error).message}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`api: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
