/**
 * An embedded airline of `npm start` (scripts/embedded-airlines.ts) as a process of its own,
 * started as `npm run airline` with that airline's variables (test/topology/processes.ts), ready
 * once its `/health` answers: its fault simulator over HTTP, SIGSTOP / SIGCONT, and read-only
 * looks at its database.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { EmbeddedAirline } from '../../scripts/embedded-airlines';
import { loadAirlineConfig, type AirlineConfig } from '../../src/airline/airline.config';
import { AirlineStore } from '../../src/airline/store/airline.store';
import { startRole, waitForHttpOk, type RoleProcess } from '../topology/processes';

/** A fault of an airline's simulator (`POST /_sim/faults`). */
export interface Fault {
  operation: string;
  mode: string;
  count: number;
  delayMs?: number;
  agencyId?: string;
}

/** One embedded airline process. */
export interface AirlineProcess {
  code: string;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Its settings, read from its variables as the process reads them. */
  config: AirlineConfig;
  role: RoleProcess;
  /** Arms a fault; rejects unless the airline armed it. */
  arm(fault: Fault): Promise<void>;
  /** Calls of `operation` (of `agencyId`) the armed faults still apply to: 0 once all were taken. */
  armedLeft(operation: string, agencyId: string): Promise<number>;
  clearFaults(): Promise<void>;
  /** SIGSTOP: the kernel still takes in its connections and requests, nothing answers. */
  freeze(): void;
  /** SIGCONT: it handles what arrived meanwhile. */
  thaw(): void;
  /** `read` of its store as its files are now (a database on disk only): {@link readAirlineStore}. */
  store<T>(read: (store: AirlineStore) => T): T;
  /** Thaws it if frozen, then stops it (SIGTERM, SIGKILL after the grace); resolves once it ended. */
  close(): Promise<void>;
}

/**
 * Starts `airline` (its `env`, then `env` here over it; default an in-memory database, logs at
 * `warn`), its output in `dir/airline-<code>.log`; resolves once its `/health` answers 200 and
 * rejects (the process stopped) when it exits first.
 */
export async function startAirlineProcess(
  airline: EmbeddedAirline,
  dir: string,
  env: Record<string, string> = {},
): Promise<AirlineProcess> {
  const variables = { AIRLINE_DB_PATH: ':memory:', LOG_LEVEL: 'warn', ...airline.env, ...env };
  const config = loadAirlineConfig({ ...process.env, ...variables });
  const role = startRole(`airline-${airline.code}`, 'airline', variables, dir);
  let frozen = false;
  const signal = (name: 'SIGSTOP' | 'SIGCONT'): void => {
    if (role.isRunning()) process.kill(role.pid, name);
  };
  const close = async (): Promise<void> => {
    if (frozen) signal('SIGCONT');
    await role.stop();
  };
  const url = `http://127.0.0.1:${airline.port}`;
  await waitForHttpOk(`airline ${airline.code}`, `${url}/health`, role).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const faults = `${url}/_sim/faults`;
  const authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
  return {
    code: airline.code,
    url,
    config,
    role,
    async arm(fault) {
      const response = await fetch(faults, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify(fault),
      });
      if (response.status !== 201) throw new Error(`arming ${fault.operation} at ${airline.code}: ${response.status}`);
    },
    async armedLeft(operation, agencyId) {
      const response = await fetch(faults, { headers: { authorization } });
      const { faults: armed } = (await response.json()) as {
        faults: { operation: string; agencyId?: string; remaining: number }[];
      };
      return armed
        .filter((fault) => fault.operation === operation && fault.agencyId === agencyId)
        .reduce((sum, fault) => sum + fault.remaining, 0);
    },
    async clearFaults() {
      const response = await fetch(faults, { method: 'DELETE', headers: { authorization } });
      if (response.status !== 204) throw new Error(`clearing the faults of ${airline.code}: ${response.status}`);
    },
    freeze() {
      signal('SIGSTOP');
      frozen = true;
    },
    thaw() {
      if (frozen) signal('SIGCONT');
      frozen = false;
    },
    store: (read) => readAirlineStore(config.dbPath, read),
    close,
  };
}

/** Tries at reading a database and its WAL twice alike before giving up (a busy airline writes in between). */
const SNAPSHOT_ATTEMPTS = 100;

/**
 * `read` of the airline store in `dbPath` as its files are now, never touching them. The airline
 * process owns its database (WAL with EXCLUSIVE locking, src/airline/store/airline.database.ts): no
 * second connection may open it. So the database file and its `-wal` are read twice until both
 * reads agree (nothing was written meanwhile), written to a folder of their own and opened there with
 * the airline's own {@link AirlineStore}: SQLite recovers the copied WAL as after a crash of the
 * process (committed transactions kept, a half-written one left out), then the copy is removed.
 */
export function readAirlineStore<T>(dbPath: string, read: (store: AirlineStore) => T): T {
  if (dbPath === ':memory:') throw new Error('an airline with an in-memory database has no files to read');
  const dir = mkdtempSync(path.join(tmpdir(), 'airline-store-'));
  const copy = path.join(dir, path.basename(dbPath));
  try {
    copyStill(dbPath, copy);
    const store = new AirlineStore(copy);
    try {
      return read(store);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `dbPath` and its `-wal` to `copy` (and `copy-wal`) as two reads of both in a row found them. */
function copyStill(dbPath: string, copy: string): void {
  const files = [dbPath, `${dbPath}-wal`];
  const contents = (): (Buffer | undefined)[] =>
    files.map((file) => (existsSync(file) ? readFileSync(file) : undefined));
  let before = contents();
  for (let attempt = 0; attempt < SNAPSHOT_ATTEMPTS; attempt += 1) {
    const after = contents();
    const still = before.every((content, i) =>
      content === undefined ? after[i] === undefined : after[i] !== undefined && content.equals(after[i]),
    );
    if (still) {
      // What was read, not the files again: they may have changed since.
      after.forEach((content, i) => {
        if (content !== undefined) writeFileSync(`${copy}${files[i]!.slice(dbPath.length)}`, content);
      });
      return;
    }
    before = after;
  }
  throw new Error(`${dbPath} changed during each of ${SNAPSHOT_ATTEMPTS} reads`);
}
