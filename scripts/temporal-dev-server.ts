/**
 * Starts and stops `temporal server start-dev`, for the jest global setup and `npm start`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from '../src/temporal/search-attributes';
import { watchExit } from './child-exit';

const execFileAsync = promisify(execFile);

/** The custom search attributes of the booking saga, all of type Keyword. */
export const BOOKING_SEARCH_ATTRIBUTES: Readonly<Record<string, 'Keyword'>> = Object.fromEntries(
  BOOKING_SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, 'Keyword' as const]),
);

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** Path of the Temporal CLI (see `resolveTemporalCli`). */
  cli: string;
  /** gRPC port. Default: a random free port. */
  port?: number;
  /** IP the server binds to. Default: `127.0.0.1`. */
  ip?: string;
  /** Web UI port; ignored when `headless`. Default: `port + 1000`. */
  uiPort?: number;
  /** Disable the Web UI. Default: `false`. */
  headless?: boolean;
  /** SQLite file for persistent state. Default: none (in memory, lost when the server stops). */
  dbFilename?: string;
  /** Namespace waited for. Default: `default`. */
  namespace?: string;
  /** Search attributes to register. Default: {@link BOOKING_SEARCH_ATTRIBUTES}. */
  searchAttributes?: Readonly<Record<string, string>>;
  /** Remote codec endpoint shown by the Web UI. Default: none. */
  uiCodecEndpoint?: string;
  /** File receiving the server's stdout and stderr. Default: discarded. */
  logFile?: string;
  /** Server log level. Default: `warn`. */
  logLevel?: string;
  /** How long to wait for the server to accept requests. Default: 60000 ms. */
  readyTimeoutMs?: number;
  /**
   * Stop the server when this process dies without calling `stop()` (crash, SIGKILL), through a
   * small shell wrapper watching a pipe from this process. Default: `true`.
   */
  dieWithParent?: boolean;
  /**
   * Dynamic config values (`--dynamic-config-value KEY=JSON`). Default:
   * {@link DEV_SERVER_DYNAMIC_CONFIG}; pass `{}` for the stock dev server.
   */
  dynamicConfig?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * Task-dispatch settings every Temporal server of ndc-saga runs with: the dev servers here, and
 * the real server of the topology test and docker-compose (scripts/topology/dynamic-config.yaml,
 * kept equal by test/compose.e2e-spec.ts). See docs/orchestrator.md, "Priority and fairness".
 *
 * - `matching.enableFairness`: dispatch each priority level's tasks in proportion to their
 *   fairness key's weight (our agencies) instead of first in, first out; off by default in
 *   Temporal 1.32. It implies `matching.useNewMatcher`, the priority-aware matcher (on by default).
 * - One partition per task queue (default 4): the worker's airline rate limit is split evenly
 *   over the partitions, and priority and fairness order tasks within a partition, so with 4 an
 *   interactive booking's call waited for the next slot of its partition's quarter of the quota
 *   (mean activity dispatch 125 ms against 31 ms with one, bench/README.md "priority"). A queue
 *   capped at the airline's 20 requests a second needs no more than one.
 */
export const TASK_DISPATCH_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number>> = {
  'matching.enableFairness': true,
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
};

/**
 * Dynamic config of the dev servers we start: {@link TASK_DISPATCH_DYNAMIC_CONFIG}, and a faster
 * transfer-queue reader. The dev server has a single history shard whose transfer-queue reader
 * polls at most 20 times a second by default; once its burst is spent every workflow and activity
 * task waits ~35 ms for dispatch (about 450 of the 650 ms of a booking, see bench/README.md
 * "saga"). Clusters with many shards rarely hit this limit.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, number | boolean>> = {
  ...TASK_DISPATCH_DYNAMIC_CONFIG,
  'history.transferProcessorMaxPollRPS': 1000,
};

/** A running dev server. */
export interface DevServer {
  /** `host:port` of the gRPC frontend. */
  address: string;
  /** Namespace that is ready. */
  namespace: string;
  /** Web UI URL, or `undefined` when headless. */
  uiUrl?: string;
  /** Process id of the process-group leader. */
  pid: number;
  /** The server's log file, when one was given. */
  logFile?: string;
  /** Stops the whole process group: SIGTERM, then SIGKILL after `graceMs` (default 10000). */
  stop(graceMs?: number): Promise<void>;
}

/** Returns a TCP port that was free a moment ago on `host`. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function readTail(file: string | undefined, maxChars = 2000): string {
  if (file === undefined) return '';
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.length > maxChars ? text.slice(-maxChars) : text;
  } catch {
    return '';
  }
}

/**
 * Polls the frontend until the namespace can be described, or fails at the deadline, or as soon
 * as the process exits.
 */
async function waitUntilReady(
  address: string,
  namespace: string,
  deadline: number,
  exited: () => string | undefined,
): Promise<void> {
  let lastError = 'no attempt yet';
  while (Date.now() < deadline) {
    const exitReason = exited();
    if (exitReason !== undefined) throw new Error(`temporal server exited before it was ready (${exitReason})`);
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.describeNamespace({ namespace });
      return;
    } catch (error) {
      lastError = (error as Error).message;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await connection?.close();
    }
  }
  throw new Error(`temporal server at ${address} was not ready before the deadline (last error: ${lastError})`);
}

/**
 * Registers the given search attributes that the namespace does not have yet (needed on an
 * existing SQLite file: `start-dev --search-attribute` only registers on a fresh database).
 * Returns the names it created.
 */
export async function ensureSearchAttributes(
  cli: string,
  address: string,
  namespace: string,
  attributes: Readonly<Record<string, string>> = BOOKING_SEARCH_ATTRIBUTES,
): Promise<string[]> {
  const connection = await Connection.connect({ address });
  let existing: Set<string>;
  try {
    const response = await connection.operatorService.listSearchAttributes({ namespace });
    existing = new Set(Object.keys(response.customAttributes ?? {}));
  } finally {
    await connection.close();
  }
  const created: string[] = [];
  for (const [name, type] of Object.entries(attributes)) {
    if (existing.has(name)) continue;
    try {
      await execFileAsync(cli, [
        'operator',
        'search-attribute',
        'create',
        '--address',
        address,
        '--namespace',
        namespace,
        '--name',
        name,
        '--type',
        type,
      ]);
      created.push(name);
    } catch (error) {
      const failure = error as { stderr?: string; message: string };
      if (!/already exists/i.test(`${failure.stderr ?? ''} ${failure.message}`)) throw error;
    }
  }
  return created;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts `temporal server start-dev` in its own process group and resolves once the namespace
 * answers. On any failure the server is stopped before the promise rejects.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port ?? (await freePort(ip));
  const namespace = options.namespace ?? 'default';
  const { child, pid, exited, exitReason } = await spawnServer(options, devServerArgs(options, ip, port));
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (exitReason() === undefined) {
      killGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    // The watchdog `cat` may outlive the wrapper shell: end the whole group for good.
    killGroup(pid, 'SIGKILL');
    child.stdin?.destroy();
  };
  const address = `${ip}:${port}`;
  try {
    await waitUntilReady(address, namespace, Date.now() + (options.readyTimeoutMs ?? 60_000), exitReason);
  } catch (error) {
    await stop(2000);
    const tail = readTail(options.logFile);
    throw new Error(`${(error as Error).message}${tail === '' ? '' : `\n--- ${options.logFile} ---\n${tail}`}`);
  }
  return {
    address,
    namespace,
    uiUrl: options.headless === true ? undefined : `http://${ip}:${options.uiPort ?? port + 1000}`,
    pid,
    logFile: options.logFile,
    stop,
  };
}

/** The `temporal server start-dev` arguments of `options`. */
function devServerArgs(options: DevServerOptions, ip: string, port: number): string[] {
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--log-level', options.logLevel ?? 'warn'];
  if (options.headless === true) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort ?? port + 1000), '--ui-disable-news-fetch');
  if (options.dbFilename !== undefined) {
    fs.mkdirSync(path.dirname(path.resolve(options.dbFilename)), { recursive: true });
    args.push('--db-filename', options.dbFilename);
  }
  if (options.uiCodecEndpoint !== undefined) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  for (const [name, type] of Object.entries(options.searchAttributes ?? BOOKING_SEARCH_ATTRIBUTES))
    args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(options.dynamicConfig ?? DEV_SERVER_DYNAMIC_CONFIG))
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  return args;
}

/**
 * Spawns the CLI with `args` in its own process group, logging to `options.logFile`. With
 * `dieWithParent` (default) a wrapper keeps a copy of its stdin (a pipe from us) on fd 3; when this
 * process dies the pipe closes, `cat` returns and the server is terminated. Background jobs of a
 * non-interactive shell get /dev/null as stdin, hence the explicit redirection.
 */
async function spawnServer(options: DevServerOptions, args: string[]) {
  let logFd: number | 'ignore' = 'ignore';
  if (options.logFile !== undefined) {
    fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
    logFd = fs.openSync(options.logFile, 'w');
  }
  const wrapper =
    'exec 3<&0; "$0" "$@" </dev/null & server=$!; ' +
    '(cat <&3 >/dev/null; kill -TERM "$server" 2>/dev/null) & ' +
    'wait "$server"';
  const child: ChildProcess =
    (options.dieWithParent ?? true)
      ? spawn('sh', ['-c', wrapper, options.cli, ...args], { detached: true, stdio: ['pipe', logFd, logFd] })
      : spawn(options.cli, args, { detached: true, stdio: ['ignore', logFd, logFd] });
  if (typeof logFd === 'number') fs.closeSync(logFd);
  const { exited, reason: exitReason } = watchExit(child);
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    throw new Error(`could not start ${options.cli}: ${exitReason() ?? 'unknown error'}`);
  }
  return { child, pid, exited, exitReason };
}
