/**
 * `npm run api`: the booking HTTP API (port API_PORT, default 3000) against the Temporal cluster
 * of TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE (TLS settings: see docs/operations.md). Stops cleanly
 * on SIGINT/SIGTERM; SIGHUP re-reads the API keys file (it is also re-read when it changes).
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Client } from '@temporalio/client';
import { ApiKeyStore } from './api/auth/api-keys';
import { loadApiConfig, type ApiConfig } from './api/config/api.config';
import type { UiPayloadCodec } from './api/codec/codec.controller';
import { createApiApp } from './configure-app';
import {
  createTemporalClient,
  decodePayloadsForUi,
  EncryptionCodec,
  loadPayloadKey,
  loadTemporalConfig,
} from './temporal';

/** A running API. */
export interface RunningApi {
  app: NestExpressApplication;
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
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

/** Starts the API with `config` (default: from the environment) and a client (default: a new one). */
export async function startApi(config: ApiConfig = loadApiConfig(), client?: Client): Promise<RunningApi> {
  const ownClient = client === undefined;
  const temporalClient = client ?? (await createTemporalClient({ config: loadTemporalConfig() }));
  const logger = new Logger('Auth');
  let apiKeys: ApiKeyStore | undefined;
  if (config.apiKeysFile !== undefined) {
    apiKeys = new ApiKeyStore(config.apiKeysFile, (message) =>
      logger.error(`keys file not reloaded, previous keys kept: ${message}`),
    );
    apiKeys.watch();
  }
  const app = await createApiApp({ config, temporalClient, codec: uiPayloadCodec(), apiKeys });
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as { port: number };
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    app,
    url: `http://${host}:${address.port}`,
    ...(apiKeys !== undefined ? { apiKeys } : {}),
    close: async () => {
      await app.close();
      if (ownClient) await temporalClient.connection.close();
    },
  };
}

async function main(): Promise<void> {
  const logger = new Logger('api');
  const config = loadApiConfig();
  const api = await startApi(config);
  logger.log(`booking API on ${api.url} (OpenAPI: ${api.url}/docs)`);
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
    api.close().then(
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
