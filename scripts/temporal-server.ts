/**
 * The real Temporal server (not the dev server) and its SQL tool, for the production topology
 * (docker-compose.yml) and its test (test/topology, `npm run test:topology`).
 *
 * Binaries, in order of preference:
 * 1. `TEMPORAL_SERVER_BIN` / `TEMPORAL_SQL_TOOL` when set (must be executable files; no fallback);
 * 2. the git-ignored `.tools/temporal-server/<version>/bin/{server,sql}`, built on first use with
 *    `GOTOOLCHAIN=auto go install go.temporal.io/server/cmd/server@v<version>` and
 *    `.../cmd/tools/sql@v<version>` (about 3 minutes each on 2 idle cores; the Go module and build
 *    caches make a rebuild fast). `GO` chooses the go binary (default `go` on PATH).
 *
 * Run directly (`npm run temporal:server`) it provisions both and prints their paths.
 *
 * The server runs with our config file `scripts/topology/temporal-server.yaml` (a Go template the
 * server renders from its environment) and `scripts/topology/dynamic-config.yaml`; the schema
 * and namespace steps are `scripts/topology/temporal-schema.sh` and `temporal-setup.sh`, the
 * same files docker-compose.yml mounts.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { PROJECT_ROOT } from './temporal-cli';
import { isExecutableFile, watchExit } from './child-exit';

const execFileAsync = promisify(execFile);

/** Temporal server version we build, test and deploy (docker-compose.yml uses the same tag). */
export const TEMPORAL_SERVER_VERSION = '1.32.2';

/** Folder of our server configuration, schema and setup scripts. */
export const TOPOLOGY_DIR = path.join(PROJECT_ROOT, 'scripts', 'topology');
export const SERVER_CONFIG_FILE = path.join(TOPOLOGY_DIR, 'temporal-server.yaml');
export const DYNAMIC_CONFIG_FILE = path.join(TOPOLOGY_DIR, 'dynamic-config.yaml');
export const SCHEMA_SCRIPT = path.join(TOPOLOGY_DIR, 'temporal-schema.sh');
export const SETUP_SCRIPT = path.join(TOPOLOGY_DIR, 'temporal-setup.sh');

/** The two binaries. */
export interface TemporalServerTools {
  /** `temporal-server` (the Go package `cmd/server`). */
  server: string;
  /** `temporal-sql-tool` (the Go package `cmd/tools/sql`). */
  sqlTool: string;
}

/** Options of {@link resolveTemporalServerTools}. */
export interface ResolveServerToolsOptions {
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Root holding `.tools/`. Default: the repository. */
  projectRoot?: string;
  /** Progress messages. Default: stderr. */
  log?: (message: string) => void;
}

/** `go install <module path>@v<version>` into `binDir`, through a temporary GOBIN (no half-written binary). */
function goInstall(
  pkg: string,
  binName: string,
  binDir: string,
  env: NodeJS.ProcessEnv,
  log: (m: string) => void,
): void {
  const go = env.GO || 'go';
  fs.mkdirSync(path.dirname(binDir), { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(binDir), '.install-'));
  const started = Date.now();
  log(`temporal-server: go install ${pkg}@v${TEMPORAL_SERVER_VERSION} (a few minutes the first time)`);
  try {
    execFileSync(go, ['install', `${pkg}@v${TEMPORAL_SERVER_VERSION}`], {
      env: { ...env, GOTOOLCHAIN: env.GOTOOLCHAIN || 'auto', GOBIN: staging, CGO_ENABLED: env.CGO_ENABLED ?? '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    fs.mkdirSync(binDir, { recursive: true });
    fs.renameSync(path.join(staging, binName), path.join(binDir, binName));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `"${go}" not found: install Go or set GO`
        : (error as Error).message;
    throw new Error(`temporal-server: go install ${pkg} failed: ${reason}`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  log(`temporal-server: ${binName} built in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Finds or builds the server and the SQL tool (see the file comment for the order). */
export function resolveTemporalServerTools(options: ResolveServerToolsOptions = {}): TemporalServerTools {
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const binDir = path.join(
    options.projectRoot ?? PROJECT_ROOT,
    '.tools',
    'temporal-server',
    TEMPORAL_SERVER_VERSION,
    'bin',
  );
  const pick = (variable: string, binName: string, pkg: string): string => {
    const explicit = env[variable];
    if (explicit !== undefined && explicit !== '') {
      if (!isExecutableFile(explicit)) throw new Error(`${variable}: "${explicit}" is not an executable file`);
      return path.resolve(explicit);
    }
    const local = path.join(binDir, binName);
    if (!isExecutableFile(local)) goInstall(pkg, binName, binDir, env, log);
    return local;
  };
  return {
    server: pick('TEMPORAL_SERVER_BIN', 'server', 'go.temporal.io/server/cmd/server'),
    sqlTool: pick('TEMPORAL_SQL_TOOL', 'sql', 'go.temporal.io/server/cmd/tools/sql'),
  };
}

/** PostgreSQL the server stores its state in. */
export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
}

/**
 * Runs `scripts/topology/temporal-schema.sh` (create the databases, set up and update both
 * schemas). Rejects with the tool's output when a step fails.
 */
export async function setupSchema(sqlTool: string, db: PostgresTarget): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync('sh', [SCHEMA_SCRIPT], {
      env: {
        ...process.env,
        TEMPORAL_SQL_TOOL: sqlTool,
        SQL_HOST: db.host,
        SQL_PORT: String(db.port),
        SQL_USER: db.user,
        SQL_PASSWORD: db.password,
      },
      maxBuffer: 16 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`temporal-schema.sh failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
}

/**
 * Runs `scripts/topology/temporal-setup.sh` (namespace and search attributes) with the Temporal
 * CLI `cli`. Rejects with its output when a step fails.
 */
export async function setupNamespace(cli: string, address: string, namespace = 'default'): Promise<string> {
  try {
    const { stdout, stderr } = await execFileAsync('sh', [SETUP_SCRIPT], {
      env: { ...process.env, TEMPORAL_CLI: cli, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace },
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`temporal-setup.sh failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
}

/** The ports of one server process (all services in one process, on 127.0.0.1). */
export interface ServerPorts {
  frontendGrpc: number;
  frontendHttp: number;
  frontendMembership: number;
  historyGrpc: number;
  historyMembership: number;
  matchingGrpc: number;
  matchingMembership: number;
  workerGrpc: number;
  workerMembership: number;
  metrics: number;
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * Ten ports that were free a moment ago, all below 32768: the server stores membership ports in
 * a PostgreSQL `smallint` (cluster_membership.rpc_port), so Linux's ephemeral ports (32768 and
 * up, what port 0 gives) make it fail with "out of range for type smallint".
 */
export async function freeServerPorts(): Promise<ServerPorts> {
  const names: (keyof ServerPorts)[] = [
    'frontendGrpc',
    'frontendHttp',
    'frontendMembership',
    'historyGrpc',
    'historyMembership',
    'matchingGrpc',
    'matchingMembership',
    'workerGrpc',
    'workerMembership',
    'metrics',
  ];
  const ports = new Set<number>();
  while (ports.size < names.length) {
    const candidate = 20_000 + randomInt(12_000);
    if (!ports.has(candidate) && (await canBind(candidate))) ports.add(candidate);
  }
  const list = [...ports];
  return Object.fromEntries(names.map((name, i) => [name, list[i]])) as unknown as ServerPorts;
}

/** The environment our config file reads (docs/operations.md lists every variable). */
export function serverEnvironment(db: PostgresTarget, ports: ServerPorts): NodeJS.ProcessEnv {
  return {
    POSTGRES_SEEDS: db.host,
    DB_PORT: String(db.port),
    POSTGRES_USER: db.user,
    POSTGRES_PWD: db.password,
    DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG_FILE,
    BIND_ON_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(ports.frontendGrpc),
    FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    HISTORY_GRPC_PORT: String(ports.historyGrpc),
    HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    MATCHING_GRPC_PORT: String(ports.matchingGrpc),
    MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    WORKER_GRPC_PORT: String(ports.workerGrpc),
    WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
    PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.metrics}`,
  };
}

/** Options of {@link startTemporalServer}. */
export interface TemporalServerOptions {
  /** The `server` binary. */
  bin: string;
  db: PostgresTarget;
  ports: ServerPorts;
  /** File the server's output is appended to. */
  logFile: string;
  /** Server log level (LOG_LEVEL). Default `warn`. */
  logLevel?: string;
  /** Deadline for the frontend to answer, ms. Default 120000. */
  readyTimeoutMs?: number;
}

/** A running server. */
export interface RunningTemporalServer {
  /** `127.0.0.1:<frontend gRPC port>`. */
  address: string;
  /** Prometheus endpoint of the server. */
  metricsUrl: string;
  pid: number;
  /** SIGTERM (graceful), SIGKILL after `graceMs` (default 20000); resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

function readTail(file: string, maxChars = 4000): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.length > maxChars ? text.slice(-maxChars) : text;
  } catch {
    return '';
  }
}

/**
 * Starts `server --config-file scripts/topology/temporal-server.yaml start` and resolves once the
 * frontend describes the `temporal-system` namespace (persistence and membership answer). The
 * server dies with this process (a watchdog on a pipe, as for the dev server).
 */
export async function startTemporalServer(options: TemporalServerOptions): Promise<RunningTemporalServer> {
  const { child, pid, exited, exitReason } = await spawnServer(options);
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  const stop = async (graceMs = 20_000): Promise<void> => {
    if (exitReason() === undefined) {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    killGroup('SIGKILL');
    child.stdin?.destroy();
  };
  const address = `127.0.0.1:${options.ports.frontendGrpc}`;
  await waitForFrontend(address, options, { stop, exitReason });
  return { address, metricsUrl: `http://127.0.0.1:${options.ports.metrics}/metrics`, pid, stop };
}

/** The server in its own process group, ended by a watchdog on a pipe when this process dies. */
async function spawnServer(options: TemporalServerOptions) {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const logFd = fs.openSync(options.logFile, 'a');
  const wrapper =
    'exec 3<&0; "$0" "$@" </dev/null & server=$!; ' +
    '(cat <&3 >/dev/null; kill -TERM "$server" 2>/dev/null) & ' +
    'wait "$server"';
  const child: ChildProcess = spawn('sh', ['-c', wrapper, options.bin, '--config-file', SERVER_CONFIG_FILE, 'start'], {
    detached: true,
    stdio: ['pipe', logFd, logFd],
    env: { ...process.env, ...serverEnvironment(options.db, options.ports), LOG_LEVEL: options.logLevel ?? 'warn' },
  });
  fs.closeSync(logFd);
  const { exited, reason: exitReason } = watchExit(child);
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    throw new Error(`could not start ${options.bin}: ${exitReason() ?? 'unknown error'}`);
  }
  return { child, pid, exited, exitReason };
}

/** Waits until the frontend describes `temporal-system`; stops the server and throws when it exits or the time is up. */
async function waitForFrontend(
  address: string,
  options: TemporalServerOptions,
  server: { stop: (graceMs?: number) => Promise<void>; exitReason: () => string | undefined },
): Promise<void> {
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  let lastError = 'no attempt yet';
  for (;;) {
    if (server.exitReason() !== undefined) {
      await server.stop(1000);
      throw new Error(
        `temporal server exited before it was ready (${server.exitReason()})\n--- ${options.logFile} ---\n${readTail(options.logFile)}`,
      );
    }
    if (Date.now() > deadline) {
      await server.stop(1000);
      throw new Error(
        `temporal server at ${address} not ready before the deadline (${lastError})\n${readTail(options.logFile)}`,
      );
    }
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.describeNamespace({ namespace: 'temporal-system' });
      return;
    } catch (error) {
      lastError = (error as Error).message;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await connection?.close();
    }
  }
}

if (require.main === module) {
  try {
    const tools = resolveTemporalServerTools();
    process.stdout.write(`TEMPORAL_SERVER_BIN=${tools.server}\nTEMPORAL_SQL_TOOL=${tools.sqlTool}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
