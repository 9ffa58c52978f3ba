/**
 * Temporal connection settings, read once from the environment with one zod schema and validated
 * (fail fast with the variable's name). Shared by the worker, the API and the CLI tools.
 */
import * as fs from 'node:fs';
import { z } from 'zod/v4';
import { DEFAULT_TASK_QUEUE } from './task-queue';
import { EnvConfigError, parseEnv } from '../common/env';

/** Thrown when a TEMPORAL_* variable is invalid; the message names it. */
export class TemporalConfigError extends EnvConfigError {
  constructor(variable: string, reason: string) {
    super('TEMPORAL_CONFIG_INVALID', variable, reason);
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

/** `host:port` or `[ipv6]:port` (e.g. `[::1]:7233`); no scheme, no path. */
const HOST_PORT = /^(?:[^\s:/[\]]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$/;

/**
 * The variables naming the cluster, shared by every process's schema (the worker's here, the
 * API's in `src/api/config`), so that they accept the same values.
 */
export const temporalEnvFields = {
  TEMPORAL_ADDRESS: z
    .string()
    .trim()
    .regex(HOST_PORT, { error: (issue) => `must be host:port or [ipv6]:port, got "${String(issue.input)}"` })
    .default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().trim().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().trim().min(1).default(DEFAULT_TASK_QUEUE),
};

const TLS_PEMS = {
  TEMPORAL_TLS_CERT: 'clientCert',
  TEMPORAL_TLS_KEY: 'clientKey',
  TEMPORAL_TLS_CA: 'serverRootCa',
} as const;

/** A PEM value given inline (`-----BEGIN ...`, `\n` escapes allowed) or as a file path. */
function readPem(value: string): Buffer {
  if (value.trimStart().startsWith('-----BEGIN')) return Buffer.from(value.replace(/\\n/g, '\n'));
  return fs.readFileSync(value);
}

/** The Temporal settings' environment: one schema, every variable with its default. */
export const temporalEnvSchema = z
  .object({
    ...temporalEnvFields,
    TEMPORAL_TLS_CERT: z.string().trim().optional(),
    TEMPORAL_TLS_KEY: z.string().trim().optional(),
    TEMPORAL_TLS_CA: z.string().trim().optional(),
    TEMPORAL_TLS_SERVER_NAME: z.string().trim().optional(),
    TEMPORAL_API_KEY: z.string().trim().optional(),
  })
  .superRefine((e, ctx) => {
    if ((e.TEMPORAL_TLS_CERT === undefined) !== (e.TEMPORAL_TLS_KEY === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [e.TEMPORAL_TLS_CERT === undefined ? 'TEMPORAL_TLS_CERT' : 'TEMPORAL_TLS_KEY'],
        message: 'TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together',
      });
    }
  })
  .transform((e, ctx): TemporalConfig => {
    const config: TemporalConfig = {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
    };
    const serverName = e.TEMPORAL_TLS_SERVER_NAME;
    const apiKey = e.TEMPORAL_API_KEY;
    const pems = (Object.keys(TLS_PEMS) as (keyof typeof TLS_PEMS)[]).filter((name) => e[name] !== undefined);
    if (pems.length > 0 || serverName !== undefined || apiKey !== undefined) {
      const tls: TemporalTlsConfig = {};
      for (const name of pems) {
        try {
          tls[TLS_PEMS[name]] = readPem(e[name]!);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `cannot read PEM file "${e[name]}" (${(error as Error).message})`,
          });
          return z.NEVER;
        }
      }
      if (serverName !== undefined) tls.serverName = serverName;
      config.tls = tls;
    }
    if (apiKey !== undefined) config.apiKey = apiKey;
    return config;
  });

/** Reads and validates the Temporal settings from `env` (default `process.env`). */
export function loadTemporalConfig(env: NodeJS.ProcessEnv = process.env): TemporalConfig {
  return parseEnv(temporalEnvSchema, env, (variable, reason) => new TemporalConfigError(variable, reason));
}
