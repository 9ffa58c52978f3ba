/**
 * Temporal connection settings, read once from the environment and validated (fail fast with
 * the variable's name). Shared by the worker, the API and the CLI tools.
 */
import * as fs from 'node:fs';
import { DEFAULT_TASK_QUEUE } from '../booking/booking.model';

/** Thrown when a TEMPORAL_* variable is invalid; the message names it. */
export class TemporalConfigError extends Error {
  readonly code = 'TEMPORAL_CONFIG_INVALID';
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
  }
}

export interface TemporalTlsConfig {
  /** PEM client certificate (mTLS), from TEMPORAL_TLS_CERT. */
  clientCert?: Buffer;
  /** PEM client key (mTLS), from TEMPORAL_TLS_KEY. */
  clientKey?: Buffer;
  /** PEM CA bundle to trust instead of the system roots, from TEMPORAL_TLS_CA. */
  serverRootCa?: Buffer;
  /** Overrides the TLS server name, from TEMPORAL_TLS_SERVER_NAME. */
  serverName?: string;
}

export interface TemporalConfig {
  /** `host:port` of the frontend (TEMPORAL_ADDRESS, default `127.0.0.1:7233`). */
  address: string;
  /** Namespace (TEMPORAL_NAMESPACE, default `default`). */
  namespace: string;
  /** Task queue of the booking worker (TEMPORAL_TASK_QUEUE, default `ndc-saga`). */
  taskQueue: string;
  /**
   * TLS settings; set when any TEMPORAL_TLS_* variable or TEMPORAL_API_KEY is set (an API key
   * implies TLS, as on Temporal Cloud). Default: plain text.
   */
  tls?: TemporalTlsConfig;
  /** API key sent as a bearer token (TEMPORAL_API_KEY, default none). */
  apiKey?: string;
}

/** A PEM value given inline (`-----BEGIN ...`) or as a file path. */
function readPem(variable: string, value: string): Buffer {
  if (value.trimStart().startsWith('-----BEGIN')) return Buffer.from(value.replace(/\\n/g, '\n'));
  try {
    return fs.readFileSync(value);
  } catch (error) {
    throw new TemporalConfigError(variable, `cannot read PEM file "${value}" (${(error as Error).message})`);
  }
}

function nonEmpty(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Reads and validates the Temporal settings from `env` (default `process.env`). */
export function loadTemporalConfig(env: NodeJS.ProcessEnv = process.env): TemporalConfig {
  const address = nonEmpty(env, 'TEMPORAL_ADDRESS') ?? '127.0.0.1:7233';
  if (!/^[^\s:/]+:\d{1,5}$/.test(address) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(address)) {
    throw new TemporalConfigError('TEMPORAL_ADDRESS', `must be host:port, got "${address}"`);
  }
  const namespace = nonEmpty(env, 'TEMPORAL_NAMESPACE') ?? 'default';
  const taskQueue = nonEmpty(env, 'TEMPORAL_TASK_QUEUE') ?? DEFAULT_TASK_QUEUE;
  const cert = nonEmpty(env, 'TEMPORAL_TLS_CERT');
  const key = nonEmpty(env, 'TEMPORAL_TLS_KEY');
  const ca = nonEmpty(env, 'TEMPORAL_TLS_CA');
  const serverName = nonEmpty(env, 'TEMPORAL_TLS_SERVER_NAME');
  const apiKey = nonEmpty(env, 'TEMPORAL_API_KEY');
  if ((cert === undefined) !== (key === undefined)) {
    throw new TemporalConfigError(
      cert === undefined ? 'TEMPORAL_TLS_CERT' : 'TEMPORAL_TLS_KEY',
      'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together',
    );
  }
  const config: TemporalConfig = { address, namespace, taskQueue };
  if (cert !== undefined || ca !== undefined || serverName !== undefined || apiKey !== undefined) {
    config.tls = {
      ...(cert !== undefined ? { clientCert: readPem('TEMPORAL_TLS_CERT', cert) } : {}),
      ...(key !== undefined ? { clientKey: readPem('TEMPORAL_TLS_KEY', key) } : {}),
      ...(ca !== undefined ? { serverRootCa: readPem('TEMPORAL_TLS_CA', ca) } : {}),
      ...(serverName !== undefined ? { serverName } : {}),
    };
  }
  if (apiKey !== undefined) config.apiKey = apiKey;
  return config;
}
