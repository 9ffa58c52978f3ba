/**
 * The real Temporal server on a throw-away PostgreSQL, set up with the schema and namespace
 * scripts docker-compose.yml runs (scripts/temporal-server.ts): for the topology tests
 * (test/topology) and the open bench on PostgreSQL (bench/open.bench.ts, OPEN_BENCH_SERVER).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { startPostgres, type RunningPostgres } from './postgres';
import { resolveTemporalCli } from './temporal-cli';
import { freePort } from './temporal-dev-server';
import {
  freeServerPorts,
  resolveTemporalServerTools,
  setupNamespace,
  setupSchema,
  startTemporalServer,
  type RunningTemporalServer,
  type TemporalServerTools,
} from './temporal-server';

export interface TemporalOnPostgres {
  tools: TemporalServerTools;
  postgres: RunningPostgres;
  /** The server now running (replaced by {@link startServer}). */
  server: RunningTemporalServer;
  /** Starts the server again on the same database and ports (after `server.stop()`). */
  startServer(): Promise<RunningTemporalServer>;
  /** Stops the server, then PostgreSQL. */
  stop(): Promise<void>;
}

/** Starts PostgreSQL, creates the schema, starts the server (its log in `logDir`) and sets up `namespace`. */
export async function startTemporalOnPostgres(logDir: string, namespace: string): Promise<TemporalOnPostgres> {
  const tools = resolveTemporalServerTools();
  const postgres = await startPostgres({
    port: await freePort(),
    logFile: path.join(os.tmpdir(), `ndc-saga-pg-${process.pid}-${Date.now()}.log`),
  });
  let server: RunningTemporalServer | undefined;
  try {
    await setupSchema(tools.sqlTool, postgres);
    const ports = await freeServerPorts();
    const start = () =>
      startTemporalServer({
        bin: tools.server,
        db: postgres,
        ports,
        logFile: path.join(logDir, 'temporal-server.log'),
      });
    server = await start();
    await setupNamespace(resolveTemporalCli().path, server.address, namespace);
    const running: TemporalOnPostgres = {
      tools,
      postgres,
      server,
      startServer: async () => (running.server = await start()),
      stop: async () => {
        await running.server.stop(5000);
        await postgres.stop();
      },
    };
    return running;
  } catch (error) {
    await server?.stop(5000);
    await postgres.stop();
    throw error;
  }
}
