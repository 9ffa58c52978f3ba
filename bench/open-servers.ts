/**
 * The Temporal server under the open bench (bench/open.bench.ts), chosen by OPEN_BENCH_SERVER:
 * everything that differs between the two servers is here, behind {@link BenchTemporal}.
 *
 * - `dev` (default): the Temporal CLI's dev server persisting to a SQLite file (`startBenchServer`
 *   of bench/saga.bench.ts); the database is the file with its -wal, -shm and -journal, by table
 *   through SQLite's `dbstat` on a copy.
 * - `postgres`: the real Temporal server (TEMPORAL_SERVER_VERSION, scripts/temporal-server.ts) on
 *   a throw-away PostgreSQL, set up as the topology tests set it up (scripts/temporal-on-postgres.ts,
 *   the production config and dynamic config of scripts/topology/); the database is the two
 *   Temporal databases (`temporal`, `temporal_visibility`, `pg_database_size`), by table
 *   `pg_total_relation_size` (indexes and TOAST with their table).
 *
 * The server's CPU and memory are those of its processes with all their descendants, from /proc:
 * the dev server's CLI process; the Temporal server, and PostgreSQL's postmaster with its backends.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Database } from 'node-sqlite3-wasm';
import { postgresBinDir, type RunningPostgres } from '../scripts/postgres';
import { freePort } from '../scripts/temporal-dev-server';
import { startTemporalOnPostgres } from '../scripts/temporal-on-postgres';
import { TEMPORAL_SERVER_VERSION } from '../scripts/temporal-server';
import { startBenchServer } from './saga.bench';

const execFileAsync = promisify(execFile);

/** The servers OPEN_BENCH_SERVER chooses from. */
export const BENCH_SERVERS = ['dev', 'postgres'] as const;
export type BenchServerKind = (typeof BENCH_SERVERS)[number];

/** OPEN_BENCH_SERVER, default `dev`. */
export function benchServerKind(value = process.env.OPEN_BENCH_SERVER): BenchServerKind {
  if (value === undefined || value === '') return 'dev';
  if ((BENCH_SERVERS as readonly string[]).includes(value)) return value as BenchServerKind;
  throw new Error(`OPEN_BENCH_SERVER: expected ${BENCH_SERVERS.join(' or ')}, got "${value}"`);
}

/** A process of the server, measured with all its descendants. */
export interface ServerProcess {
  name: string;
  pid: number;
}

/** A Temporal server under the bench, and what the bench measures of it. */
export interface BenchTemporal {
  address: string;
  namespace: string;
  /** Its Prometheus endpoint (the frontend's `service_requests` counters). */
  metricsUrl: string;
  /** Which server, where, persisting to what (the run's first line). */
  description: string;
  /** Which server and database the database figures come from. */
  label: string;
  /** Its processes; their CPU adds up to the server's. */
  processes: ServerProcess[];
  /** Size of the database, bytes. */
  dbBytes(): Promise<number>;
  /** Bytes by table (indexes with their table). */
  dbTables(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

/** Starts the server of `kind`; its files (database, logs) go to `dir`. */
export function startBenchTemporal(kind: BenchServerKind, dir: string): Promise<BenchTemporal> {
  return kind === 'postgres' ? startOnPostgres(dir) : startDev(dir);
}

// ------------------------------------------------------------------ the dev server on SQLite

async function startDev(dir: string): Promise<BenchTemporal> {
  const dbFile = path.join(dir, 'temporal.db');
  const metricsPort = await freePort();
  const server = await startBenchServer({ dbFilename: dbFile, extraArgs: ['--metrics-port', String(metricsPort)] });
  return {
    address: server.address,
    namespace: server.namespace,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    description: `Temporal dev server (${server.address}, pid ${server.pid}) persisting to SQLite`,
    label: 'dev server, SQLite',
    processes: [{ name: 'dev server', pid: server.pid }],
    dbBytes: () => Promise.resolve(sqliteBytes(dbFile)),
    dbTables: () => Promise.resolve(sqliteTables(dbFile, dir)),
    stop: () => server.teardown(),
  };
}

/** The SQLite file and its companions, bytes. */
function sqliteBytes(dbFile: string): number {
  return ['', '-wal', '-shm', '-journal']
    .map((suffix) => `${dbFile}${suffix}`)
    .filter((file) => fs.existsSync(file))
    .reduce((sum, file) => sum + fs.statSync(file).size, 0);
}

/** Bytes per table of a copy of the database (the FTS tables of visibility as one, free pages apart). */
function sqliteTables(dbFile: string, dir: string): Map<string, number> {
  const copy = path.join(dir, 'copy.db');
  fs.copyFileSync(dbFile, copy);
  const db = new Database(copy, { readOnly: true });
  try {
    const rows = db.all(
      'SELECT coalesce(s.tbl_name, d.name) AS t, sum(d.pgsize) AS b FROM dbstat d LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY t',
    ) as Array<{ t: string; b: number }>;
    const tables = new Map<string, number>();
    for (const { t, b } of rows) {
      const name = t.startsWith('executions_visibility') ? 'executions_visibility' : t;
      tables.set(name, (tables.get(name) ?? 0) + b);
    }
    const free = db.get('PRAGMA freelist_count') as { freelist_count: number };
    const page = db.get('PRAGMA page_size') as { page_size: number };
    tables.set('(free pages)', free.freelist_count * page.page_size);
    return tables;
  } finally {
    db.close();
    fs.rmSync(copy, { force: true });
  }
}

// ------------------------------------------------------------------ the real server on PostgreSQL

/** The databases scripts/topology/temporal-schema.sh creates: persistence and visibility. */
const TEMPORAL_DATABASES = ['temporal', 'temporal_visibility'];

/**
 * The real server on a throw-away PostgreSQL, namespace `default` with the booking search
 * attributes (temporal-setup.sh). Until `stop`, SIGTERM or SIGINT stops both first: PostgreSQL
 * runs in a process group of its own and would outlive the bench.
 */
async function startOnPostgres(dir: string): Promise<BenchTemporal> {
  const running = await startTemporalOnPostgres(dir, 'default');
  const onSignal = (signal: NodeJS.Signals) =>
    void running.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
  const { server, postgres } = running;
  const sql = (db: string, query: string) => psql(postgres, db, query);
  // `15.18 (Debian 15.18-0+deb12u1)`: the version is the first word.
  const version = (await sql('postgres', "SELECT current_setting('server_version')")).split(' ')[0];
  const postmaster = Number(fs.readFileSync(path.join(postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    address: server.address,
    namespace: 'default',
    metricsUrl: server.metricsUrl,
    description:
      `Temporal server ${TEMPORAL_SERVER_VERSION} (${server.address}, pid ${server.pid}) on PostgreSQL ${version} ` +
      `(${postgres.host}:${postgres.port}, postmaster pid ${postmaster})`,
    label: `Temporal server ${TEMPORAL_SERVER_VERSION}, PostgreSQL ${version}: ${TEMPORAL_DATABASES.join(' + ')}`,
    processes: [
      { name: 'Temporal server', pid: server.pid },
      { name: 'PostgreSQL', pid: postmaster },
    ],
    dbBytes: async () => {
      const list = TEMPORAL_DATABASES.map((db) => `'${db}'`).join(', ');
      return Number(
        await sql('postgres', `SELECT sum(pg_database_size(datname)) FROM pg_database WHERE datname IN (${list})`),
      );
    },
    dbTables: () => postgresTables(sql),
    stop: async () => {
      process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
      await running.stop();
    },
  };
}

/** One query's result through `psql` (unaligned, tab-separated rows). */
async function psql(pg: RunningPostgres, db: string, query: string): Promise<string> {
  const { stdout } = await execFileAsync(
    path.join(postgresBinDir(), 'psql'),
    ['-h', pg.host, '-p', String(pg.port), '-U', pg.user, '-d', db, '-X', '-A', '-t', '-F', '\t', '-c', query],
    { env: { ...process.env, PGPASSWORD: pg.password } },
  );
  return stdout.trim();
}

/**
 * Bytes per table of both databases (same-named tables of the two added up), and what the rest of
 * each database takes (system catalogs, free space map) as `(rest)`.
 */
async function postgresTables(sql: (db: string, query: string) => Promise<string>): Promise<Map<string, number>> {
  const tables = new Map<string, number>();
  const add = (name: string, bytes: number) => tables.set(name, (tables.get(name) ?? 0) + bytes);
  for (const db of TEMPORAL_DATABASES) {
    const rows = await sql(
      db,
      "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public'",
    );
    let inTables = 0;
    for (const row of rows.split('\n').filter((line) => line !== '')) {
      const [name, bytes] = row.split('\t');
      add(name!, Number(bytes));
      inTables += Number(bytes);
    }
    add('(rest)', Number(await sql(db, 'SELECT pg_database_size(current_database())')) - inTables);
  }
  return tables;
}

// ------------------------------------------------------------------ processes

/** CPU and memory of a process with all its descendants. */
export interface TreeStats {
  /** User + system CPU of the live processes and of the descendants they reaped, ms. */
  cpuMs: number;
  /**
   * Proportional set size summed over the live processes, MB (1e6 bytes): memory shared by
   * several (PostgreSQL's shared buffers) is split between them, not counted in each as RSS would.
   * RSS where /proc/<pid>/smaps_rollup cannot be read.
   */
  pssMb: number;
}

/** {@link TreeStats} of each of `roots`, from one pass over /proc. */
export function treeStats(roots: ServerProcess[]): TreeStats[] {
  const procs = new Map<number, { ppid: number; cpuMs: number; rssMb: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(Number(entry), 'stat');
    if (stat === undefined) continue; // Gone meanwhile.
    // After the command's ')': field 3 (state), so field n is at n - 3. ppid 4, utime 14, stime 15,
    // cutime 16, cstime 17 (ticks of 10 ms), rss 24 (pages of 4 KiB).
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const ticks = f[11]! + f[12]! + f[13]! + f[14]!;
    procs.set(Number(entry), { ppid: f[1]!, cpuMs: ticks * 10, rssMb: (f[21]! * 4096) / 1e6 });
  }
  const inTree = (pid: number, root: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 0; p = procs.get(p)?.ppid) if (p === root) return true;
    return false;
  };
  return roots.map(({ pid: root }) => {
    const tree = [...procs].filter(([pid]) => inTree(pid, root));
    return {
      cpuMs: tree.reduce((sum, [, p]) => sum + p.cpuMs, 0),
      pssMb: tree.reduce((sum, [pid, p]) => sum + (pssMb(pid) ?? p.rssMb), 0),
    };
  });
}

/** The proportional set size of `pid`, MB, or undefined when it cannot be read. */
function pssMb(pid: number): number | undefined {
  const kb = /^Pss:\s+(\d+) kB/m.exec(readProc(pid, 'smaps_rollup') ?? '')?.[1];
  return kb === undefined ? undefined : (Number(kb) * 1024) / 1e6;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}
