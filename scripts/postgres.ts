/**
 * A throw-away PostgreSQL cluster for the topology test (test/topology): `initdb` into a fresh
 * folder, `postgres` on a free loopback port, a password-protected superuser, stopped and deleted
 * at the end. The Debian package `postgresql` provides the binaries (`.ci/run` installs it).
 *
 * initdb and postgres refuse to run as root: as root, the cluster runs as the `postgres` user
 * (created by the Debian package) through `runuser`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { watchExit } from './child-exit';

/** Options of {@link startPostgres}. */
export interface PostgresOptions {
  /** TCP port on 127.0.0.1. Required (pick one with `freePort()`). */
  port: number;
  /** Superuser created by initdb. Default `temporal`. */
  user?: string;
  /** Its password (md5/scram over TCP). Default `temporal`. */
  password?: string;
  /** Folder of the PostgreSQL binaries. Default: `PG_BIN_DIR`, else the newest `/usr/lib/postgresql/N/bin`, else `PATH`. */
  binDir?: string;
  /** File receiving the server log. Default: `<data folder>/postgres.log`. */
  logFile?: string;
  /** OS user that runs the cluster when this process is root. Default `postgres`. */
  osUser?: string;
  /** Deadline for the server to accept connections, ms. Default 60000. */
  readyTimeoutMs?: number;
}

/** A running throw-away cluster. */
export interface RunningPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Data folder (deleted by `stop`). */
  dataDir: string;
  logFile: string;
  /** Fast shutdown, then deletes the data folder. */
  stop(): Promise<void>;
}

/** Finds the folder holding `initdb`, `postgres` and `pg_isready`. */
export function postgresBinDir(explicit = process.env.PG_BIN_DIR): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((name) => /^\d+$/.test(name) && fs.existsSync(path.join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return path.join(root, versions[0], 'bin');
  }
  const onPath = (process.env.PATH ?? '').split(path.delimiter).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
  if (onPath !== undefined) return onPath;
  throw new Error('PostgreSQL binaries not found: install the Debian package `postgresql` or set PG_BIN_DIR');
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Runs `command args` as `osUser` when root, else as this user. */
function asClusterUser(osUser: string, command: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', osUser, '--', command, ...args]] : [command, args];
}

function readTail(file: string, maxChars = 3000): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.length > maxChars ? text.slice(-maxChars) : text;
  } catch {
    return '';
  }
}

/** Where a cluster lives while it runs. */
interface ClusterFiles {
  binDir: string;
  osUser: string;
  baseDir: string;
  dataDir: string;
  logFile: string;
}

/** Initialises and starts a cluster; resolves once `pg_isready` says it accepts connections. */
export async function startPostgres(options: PostgresOptions): Promise<RunningPostgres> {
  const user = options.user ?? 'temporal';
  const password = options.password ?? 'temporal';
  const host = '127.0.0.1';
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-pg-'));
  const files: ClusterFiles = {
    binDir: options.binDir ?? postgresBinDir(),
    osUser: options.osUser ?? 'postgres',
    baseDir,
    dataDir: path.join(baseDir, 'data'),
    logFile: options.logFile ?? path.join(baseDir, 'postgres.log'),
  };
  initCluster(files, user, password);
  const { stop, exitReason } = runCluster(files, host, options.port);
  await waitUntilReady(files, host, options.port, options.readyTimeoutMs ?? 60_000, { stop, exitReason });
  return { host, port: options.port, user, password, dataDir: files.dataDir, logFile: files.logFile, stop };
}

/** `initdb` of a new cluster owned by the cluster user, with `user` / `password` (scram-sha-256). */
function initCluster({ binDir, osUser, baseDir, dataDir }: ClusterFiles, user: string, password: string): void {
  const passwordFile = path.join(baseDir, 'pwfile');
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  // The cluster user must own its folders and read the password file.
  if (isRoot()) execFileSync('chown', ['-R', osUser, baseDir]);
  const initdb = asClusterUser(osUser, path.join(binDir, 'initdb'), [
    ...['-D', dataDir, '-U', user, '--pwfile', passwordFile],
    ...['-A', 'scram-sha-256', '-E', 'UTF8', '--locale', 'C.UTF-8'],
  ]);
  try {
    execFileSync(initdb[0], initdb[1], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failure = error as { stderr?: Buffer; message: string };
    fs.rmSync(baseDir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${failure.stderr?.toString() ?? failure.message}`);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** Starts `postgres` (tuned for throw-away test data: no fsync); `stop` ends it and removes its files. */
function runCluster(files: ClusterFiles, host: string, port: number) {
  const { binDir, osUser, baseDir, dataDir, logFile } = files;
  const logFd = fs.openSync(logFile, 'a');
  if (isRoot()) execFileSync('chown', [osUser, logFile]);
  const [command, args] = asClusterUser(osUser, path.join(binDir, 'postgres'), [
    ...['-D', dataDir, '-h', host, '-p', String(port), '-k', baseDir],
    ...['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  ]);
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', logFd, logFd], detached: true });
  fs.closeSync(logFd);
  const { exited, reason: exitReason } = watchExit(child);
  const stop = async (): Promise<void> => {
    if (exitReason() === undefined && child.pid !== undefined) {
      // SIGINT: "fast" shutdown. runuser forwards it to postgres.
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        // Already gone.
      }
      const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(baseDir, { recursive: true, force: true });
  };
  return { stop, exitReason };
}

/** Polls `pg_isready` until the cluster accepts connections; stops it and throws when it exits or the time is up. */
async function waitUntilReady(
  { binDir, logFile }: ClusterFiles,
  host: string,
  port: number,
  readyTimeoutMs: number,
  cluster: { stop: () => Promise<void>; exitReason: () => string | undefined },
): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  const isready = path.join(binDir, 'pg_isready');
  for (;;) {
    if (cluster.exitReason() !== undefined) {
      const tail = readTail(logFile);
      await cluster.stop();
      throw new Error(`postgres exited before it was ready (${cluster.exitReason()})\n${tail}`);
    }
    try {
      execFileSync(isready, ['-h', host, '-p', String(port), '-q'], { stdio: 'ignore' });
      return;
    } catch {
      if (Date.now() > deadline) {
        const tail = readTail(logFile);
        await cluster.stop();
        throw new Error(`postgres on ${host}:${port} not ready before the deadline\n${tail}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
