/**
 * `npm start`: the whole stack on one machine.
 *
 * 1. provisions the Temporal CLI (scripts/temporal-cli.ts);
 * 2. runs `temporal server start-dev` with its state in `.data/temporal.db`, Web UI on
 *    TEMPORAL_UI_PORT (8233), gRPC on TEMPORAL_PORT (7233), booking search attributes registered;
 * 3. writes the airlines file (`.data/airlines.json`, or uses AIRLINES_FILE) and starts two
 *    airline services (ZZ plain, YY SOAP 1.1: scripts/embedded-airlines.ts), the worker and the
 *    API as child processes, each once the previous one is ready;
 * 4. prints the URLs and the development API keys (an agency key and an ops key, created on
 *    first run in `.data/`, see scripts/keys.ts); Ctrl-C or SIGTERM stops the API, the worker,
 *    the airline, then Temporal.
 *
 * With the embedded dev server, `/codec` is open to loopback callers without a key
 * (CODEC_OPEN_ON_LOOPBACK) so the local Temporal UI shows payloads; the banner says so.
 * With TEMPORAL_ADDRESS set, no dev server is started: the roles use that cluster.
 * Configuration: see docs/operations.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { Connection } from '@temporalio/client';
import { DEFAULT_TASK_QUEUE } from '../src/temporal/task-queue';
import { DEV_AGENCY_ID, DEV_API_KEYS_FILE, DEV_KEYS_SECRET_FILE, ensureDevKeys, type DevKeys } from './keys';
import { PROJECT_ROOT, resolveTemporalCli } from './temporal-cli';
import { ensureSearchAttributes, startDevServer, type DevServer } from './temporal-dev-server';
import { ROLE_STDIO, ignoreBrokenPipe, watchExit } from './child-exit';
import { embeddedAirlines, ensureNotifyPasswords, writeAirlinesFile, type EmbeddedAirline } from './embedded-airlines';

/** The embedded airlines' generated push passwords, beside the development keys' secrets (mode 600). */
const DEV_NOTIFY_SECRET_FILE = path.join(path.dirname(DEV_KEYS_SECRET_FILE), 'airline-notify-secrets.json');

/** Settings of the launcher, from the environment. */
export interface StartConfig {
  temporalPort: number;
  temporalUiPort: number;
  temporalIp: string;
  temporalDbFile: string;
  temporalNamespace: string;
  /** External cluster; when set no dev server is started. */
  externalTemporalAddress?: string;
  uiCodecEndpoint?: string;
  airlinePort: number;
  /** Port of the second embedded airline, YY (SECOND_AIRLINE_PORT, default 4011). */
  secondAirlinePort: number;
  /** The airlines file written and used (AIRLINES_FILE when set: used as it is, not written). */
  airlinesFile: string;
  /** Whether {@link airlinesFile} is the user's own (then not written). */
  ownAirlinesFile: boolean;
  apiPort: number;
  taskQueue: string;
  startupTimeoutMs: number;
  stopGraceMs: number;
  /** Entry files of the roles, relative to the project root. */
  entries: { airline: string; worker: string; api: string };
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > 65535 * 10_000) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const port = intFromEnv(env, name, fallback, 1);
  if (port > 65535) throw new Error(`${name} must be a TCP port (1-65535), got "${env[name]}"`);
  return port;
}

/** Reads and validates the launcher settings; throws naming the bad variable. */
export function loadStartConfig(env: NodeJS.ProcessEnv = process.env): StartConfig {
  const apiPort = portFromEnv(env, 'API_PORT', 3000);
  const codec = env.TEMPORAL_UI_CODEC_ENDPOINT;
  return {
    temporalPort: portFromEnv(env, 'TEMPORAL_PORT', 7233),
    temporalUiPort: portFromEnv(env, 'TEMPORAL_UI_PORT', 8233),
    temporalIp: env.TEMPORAL_IP || '127.0.0.1',
    temporalDbFile: path.resolve(PROJECT_ROOT, env.TEMPORAL_DB_FILE || path.join('.data', 'temporal.db')),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    externalTemporalAddress: env.TEMPORAL_ADDRESS || undefined,
    uiCodecEndpoint: codec === 'none' ? undefined : codec || `http://localhost:${apiPort}/codec`,
    airlinePort: portFromEnv(env, 'AIRLINE_PORT', 4010),
    secondAirlinePort: portFromEnv(env, 'SECOND_AIRLINE_PORT', 4011),
    airlinesFile: path.resolve(PROJECT_ROOT, env.AIRLINES_FILE || path.join('.data', 'airlines.json')),
    ownAirlinesFile: Boolean(env.AIRLINES_FILE),
    apiPort,
    taskQueue: env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE,
    startupTimeoutMs: intFromEnv(env, 'START_TIMEOUT_MS', 120_000, 1000),
    stopGraceMs: intFromEnv(env, 'STOP_GRACE_MS', 20_000, 100),
    entries: { airline: 'src/airline/main.ts', worker: 'src/worker/main.ts', api: 'src/main.ts' },
  };
}

const log = (message: string): void => {
  process.stdout.write(`[start] ${message}\n`);
};

/** A role (airline, worker, api) running as a child process. */
export interface Role {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  /** How it ended (see {@link watchExit}); undefined while it runs. */
  exitReason: () => string | undefined;
}

function prefixLines(stream: NodeJS.ReadableStream | null, prefix: string, out: NodeJS.WritableStream): void {
  if (stream === null) return;
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => out.write(`${prefix} ${line}\n`));
}

/** Spawns `entry` (relative to the project root) as role `name`; it ends with this process (see {@link ROLE_STDIO}). */
export function startRole(name: string, entry: string, env: NodeJS.ProcessEnv): Role {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', entry], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ROLE_STDIO,
    // Own process group: a terminal Ctrl-C reaches only this launcher, which then stops the
    // roles one by one, in order (API, worker, airline).
    detached: true,
  });
  const { exited, reason } = watchExit(child);
  const role: Role = { name, child, exited, exitReason: reason };
  const label = `[${name}]`.padEnd(12);
  prefixLines(child.stdout, label, process.stdout);
  prefixLines(child.stderr, label, process.stderr);
  return role;
}

/** One GET; resolves with the status code, or rejects on a connection error or after 2 s. */
function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { timeout: 2000, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
  });
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true; fails when the role exits or at the deadline. */
async function waitUntil(
  role: Role,
  what: string,
  deadline: number,
  check: () => Promise<boolean>,
  aborted: () => boolean,
): Promise<void> {
  let last = 'not answering yet';
  while (Date.now() < deadline) {
    if (aborted()) throw new Error('start-up aborted');
    if (role.exitReason() !== undefined) throw new Error(`${role.name} exited (${role.exitReason()}) before ${what}`);
    try {
      if (await check()) return;
      last = 'not ready yet';
    } catch (error) {
      last = (error as Error).message;
    }
    await pause(250);
  }
  throw new Error(`${role.name}: ${what} did not happen before the deadline (${last})`);
}

async function workerIsPolling(address: string, namespace: string, taskQueue: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 2000 });
  try {
    const response = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    return (response.pollers ?? []).length > 0;
  } finally {
    await connection.close();
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

async function stopRole(role: Role, graceMs: number): Promise<void> {
  if (role.exitReason() !== undefined) return;
  signalGroup(role.child, 'SIGTERM');
  const timer = setTimeout(() => {
    log(`${role.name} did not stop within ${graceMs} ms, killing it`);
    signalGroup(role.child, 'SIGKILL');
  }, graceMs);
  await role.exited;
  clearTimeout(timer);
}

/** The roles started so far and the dev server, stopped together (last started, first stopped). */
class Stack {
  readonly roles: Role[] = [];
  server: DevServer | undefined;
  aborted = false;
  private stopping: Promise<number> | undefined;

  constructor(private readonly config: StartConfig) {}

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  stopAll(code: number): Promise<number> {
    this.stopping ??= (async () => {
      for (const role of [...this.roles].reverse()) {
        log(`stopping ${role.name}...`);
        await stopRole(role, this.config.stopGraceMs);
      }
      if (this.server !== undefined) {
        log('stopping the Temporal dev server...');
        await this.server.stop(this.config.stopGraceMs);
      }
      log('stopped');
      return code;
    })();
    return this.stopping;
  }

  /** Starts `role` and waits until `ready` says so (or the role exits, or the stack is stopped). */
  async startRole(
    name: string,
    entry: string,
    env: NodeJS.ProcessEnv,
    what: string,
    ready: () => Promise<boolean>,
  ): Promise<Role> {
    const role = startRole(name, entry, env);
    this.roles.push(role);
    await waitUntil(role, what, Date.now() + this.config.startupTimeoutMs, ready, () => this.aborted);
    return role;
  }
}

/** Runs the stack until a signal or a role exiting on its own; resolves with the exit code. */
export async function start(config: StartConfig = loadStartConfig()): Promise<number> {
  const stack = new Stack(config);
  let signalled: ((code: number) => void) | undefined;
  const signal = new Promise<number>((resolve) => (signalled = resolve));
  const onSignal = (name: NodeJS.Signals): void => {
    log(`${name} received`);
    stack.aborted = true;
    signalled?.(0); // a requested stop is a clean exit
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  ignoreBrokenPipe(process.stdout);
  ignoreBrokenPipe(process.stderr);
  try {
    const startup = startEverything(stack, config);
    // A signal during start-up stops what has started so far.
    const outcome = await Promise.race([startup.then(() => 'started' as const), signal.then((code) => ({ code }))]);
    if (outcome !== 'started') {
      await startup.catch(() => undefined);
      return await stack.stopAll(outcome.code);
    }
    return await stack.stopAll(await Promise.race([signal, roleExit(stack)]));
  } catch (error) {
    log(`start failed: ${(error as Error).message}`);
    return await stack.stopAll(1);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Resolves when a role exits on its own: 1 (everything is stopped then), 0 when stopping anyway. */
function roleExit(stack: Stack): Promise<number> {
  return Promise.race(
    stack.roles.map((role) =>
      role.exited.then(() => {
        if (stack.isStopping) return 0;
        log(`${role.name} exited unexpectedly (${role.exitReason() ?? 'unknown'}), stopping everything`);
        return 1;
      }),
    ),
  );
}

/** Temporal, the keys, the airlines, the worker and the API, each once the one before is ready. */
async function startEverything(stack: Stack, config: StartConfig): Promise<void> {
  const address = await startTemporal(stack, config);
  const production = process.env.NODE_ENV === 'production';
  const keys = developmentKeys(production);
  const codecOpen = stack.server !== undefined && !production;
  const env = roleEnvironment(config, address, keys.apiKeysFile, codecOpen);
  const airlines = await startAirlines(stack, config, env);
  await stack.startRole('worker', config.entries.worker, env, `polling task queue ${config.taskQueue}`, () =>
    workerIsPolling(address, config.temporalNamespace, config.taskQueue),
  );
  log('worker ready');
  await warnOnRefusedCredentials(env);
  const apiUrl = `http://127.0.0.1:${config.apiPort}`;
  await stack.startRole(
    'api',
    config.entries.api,
    env,
    `GET ${apiUrl}/health answered 200`,
    async () => (await httpStatus(`${apiUrl}/health`)) === 200,
  );
  log('api ready');
  process.stdout.write(`\n${bannerLines(config, { stack, address, env, airlines, keys, codecOpen }).join('\n')}\n\n`);
}

/** The dev server (unless TEMPORAL_ADDRESS names a cluster), with the booking search attributes; its address. */
async function startTemporal(stack: Stack, config: StartConfig): Promise<string> {
  if (config.externalTemporalAddress !== undefined) {
    log(
      `TEMPORAL_ADDRESS is set: using the Temporal cluster at ${config.externalTemporalAddress}, no dev server started`,
    );
    return config.externalTemporalAddress;
  }
  const cli = resolveTemporalCli();
  log(`Temporal CLI: ${cli.path} (${cli.source})`);
  stack.server = await startDevServer({
    cli: cli.path,
    ip: config.temporalIp,
    port: config.temporalPort,
    uiPort: config.temporalUiPort,
    dbFilename: config.temporalDbFile,
    namespace: config.temporalNamespace,
    uiCodecEndpoint: config.uiCodecEndpoint,
    logFile: path.join(path.dirname(config.temporalDbFile), 'temporal.log'),
    readyTimeoutMs: config.startupTimeoutMs,
  });
  const created = await ensureSearchAttributes(cli.path, stack.server.address, config.temporalNamespace);
  if (created.length > 0) log(`registered search attributes ${created.join(', ')}`);
  return stack.server.address;
}

/** The API keys file, and (outside production) the development keys in it. */
function developmentKeys(production: boolean): { apiKeysFile: string; devKeys?: DevKeys } {
  const apiKeysFile = process.env.API_KEYS_FILE || DEV_API_KEYS_FILE;
  if (production) return { apiKeysFile };
  const devKeys = ensureDevKeys(apiKeysFile);
  if (devKeys.created) log(`created the development API keys in ${apiKeysFile} (secrets in ${DEV_KEYS_SECRET_FILE})`);
  return { apiKeysFile, devKeys };
}

/** What every role runs with: ours, plus where Temporal, the airlines file and the keys are. */
function roleEnvironment(
  config: StartConfig,
  address: string,
  apiKeysFile: string,
  codecOpen: boolean,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: config.temporalNamespace,
    TEMPORAL_TASK_QUEUE: config.taskQueue,
    API_PORT: String(config.apiPort),
    AIRLINES_FILE: config.airlinesFile,
    API_KEYS_FILE: apiKeysFile,
    ...(codecOpen ? { CODEC_OPEN_ON_LOOPBACK: 'true' } : {}),
    // The roles' stdout is a pipe: keep their logs readable when ours is a terminal.
    LOG_FORMAT: process.env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json'),
    WORKER_HTTP_PORT: process.env.WORKER_HTTP_PORT || '9464',
    API_METRICS_PORT: process.env.API_METRICS_PORT || '9465',
    AIRLINE_METRICS_PORT: process.env.AIRLINE_METRICS_PORT || '9466',
  };
}

/** The embedded airlines (their credentials put into `env` for the worker), each once it answers. */
async function startAirlines(stack: Stack, config: StartConfig, env: NodeJS.ProcessEnv): Promise<EmbeddedAirline[]> {
  const airlines = embeddedAirlines(
    {
      zz: config.airlinePort,
      yy: config.secondAirlinePort,
      zzMetrics: env.AIRLINE_METRICS_PORT!,
      yyMetrics: process.env.SECOND_AIRLINE_METRICS_PORT || '9467',
    },
    path.dirname(config.temporalDbFile),
    env,
    // Own airlines file: its profiles say who pushes; the embedded airlines push to nobody then.
    config.ownAirlinesFile
      ? undefined
      : { apiPort: config.apiPort, passwords: ensureNotifyPasswords(DEV_NOTIFY_SECRET_FILE, process.env) },
  );
  // One source per airline: the worker reads the password the airline process was given, the API
  // the push password (never printed).
  for (const { secret, notifySecret } of airlines) {
    env[secret.name] = secret.value;
    if (notifySecret !== undefined) env[notifySecret.name] = notifySecret.value;
  }
  const airlinesText = config.ownAirlinesFile
    ? fs.readFileSync(config.airlinesFile, 'utf8')
    : writeAirlinesFile(config.airlinesFile, airlines);
  log(`airlines file ${config.airlinesFile}${config.ownAirlinesFile ? ' (AIRLINES_FILE)' : ''}:\n${airlinesText}`);
  for (const embedded of airlines) {
    const url = `http://127.0.0.1:${embedded.port}`;
    await stack.startRole(
      `airline-${embedded.code}`,
      config.entries.airline,
      { ...env, ...embedded.env },
      `GET ${url}/health answered 200`,
      async () => (await httpStatus(`${url}/health`)) === 200,
    );
    log(`airline ${embedded.code} ready`);
  }
  return airlines;
}

/**
 * An airline that refuses the worker's credentials is said loudly here too (the worker logs it
 * and shows it in its health): its bookings would fail, or go to the other airline unnoticed.
 */
async function warnOnRefusedCredentials(env: NodeJS.ProcessEnv): Promise<void> {
  if (env.WORKER_HTTP_PORT === 'off' || env.WORKER_HTTP_PORT === '0') return;
  const url = `http://127.0.0.1:${env.WORKER_HTTP_PORT}/health/ready`;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const airlines = await workerAirlines(url);
    const pending = Object.values(airlines).some((a) => a.credentials?.status === 'unchecked');
    for (const [code, airline] of Object.entries(airlines))
      if (airline.credentials?.status === 'refused')
        log(
          `WARNING: airline ${code} refuses the worker's credentials: its bookings fail (check AIRLINE_USERNAME / AIRLINE_PASSWORD or its passwordEnv)`,
        );
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The airlines part of the worker's readiness answer (empty when it cannot be read). */
async function workerAirlines(url: string): Promise<Record<string, { credentials?: { status: string } }>> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    const body = (await res.json()) as {
      details?: { airlines?: Record<string, { credentials?: { status: string } }> };
    };
    return body.details?.airlines ?? {};
  } catch {
    return {};
  }
}

/** What `npm start` prints once everything runs. */
function bannerLines(
  config: StartConfig,
  started: {
    stack: Stack;
    address: string;
    env: NodeJS.ProcessEnv;
    airlines: EmbeddedAirline[];
    keys: { apiKeysFile: string; devKeys?: DevKeys };
    codecOpen: boolean;
  },
): string[] {
  const { stack, address, env, airlines, keys, codecOpen } = started;
  const workerHttp = env.WORKER_HTTP_PORT === 'off' ? undefined : `http://localhost:${env.WORKER_HTTP_PORT}`;
  // `0` (a free port) is only known to the role itself, which logs it.
  const metricsUrl = (port: string | undefined): string =>
    port === 'off' ? 'off' : port === '0' ? '(a free port, see its log)' : `http://localhost:${port}/metrics`;
  return [
    'ndc-saga is running:',
    `  API             http://localhost:${config.apiPort}`,
    `  API docs        http://localhost:${config.apiPort}/docs`,
    ...airlines.map(
      (embedded) =>
        `  Airline ${embedded.code}      http://localhost:${embedded.port} (${embedded.entry.binding ?? 'plain'}, media vendor ${embedded.entry.mediaVendor ?? 'ndcsaga'}; metrics ${metricsUrl(embedded.metricsPort)})`,
    ),
    `  Airlines file   ${config.airlinesFile} (GET /airlines lists them)`,
    ...(workerHttp !== undefined
      ? [
          `  Worker health   ${workerHttp}/health/ready (liveness /health/live)`,
          `  Worker metrics  ${workerHttp}/metrics`,
        ]
      : []),
    `  API metrics     ${metricsUrl(env.API_METRICS_PORT)}`,
    stack.server?.uiUrl !== undefined
      ? `  Temporal UI     http://localhost:${config.temporalUiPort}`
      : `  Temporal        ${address} (external)`,
    `  Temporal gRPC   ${address}, namespace ${config.temporalNamespace}`,
    ...(stack.server !== undefined ? [`  Temporal data   ${config.temporalDbFile}`] : []),
    ...keyLines(keys),
    ...(codecOpen
      ? [
          `  Codec           http://localhost:${config.apiPort}/codec is open to loopback callers without a key (dev stack only), for the Temporal UI`,
        ]
      : []),
    'Press Ctrl-C to stop.',
  ];
}

function keyLines({ apiKeysFile, devKeys }: { apiKeysFile: string; devKeys?: DevKeys }): string[] {
  if (devKeys === undefined) return [];
  return [
    `  Agency API key  ${devKeys.agencyKey}`,
    `                  (agency ${DEV_AGENCY_ID}; npm run book and the examples use it: Authorization: Bearer <key>)`,
    `  Ops API key     ${devKeys.opsKey}`,
    '                  (every agency, and /codec)',
    `  Keys            ${apiKeysFile} (npm run keys -- list | create | revoke)`,
  ];
}

if (require.main === module) {
  let config: StartConfig;
  try {
    config = loadStartConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  start(config).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
