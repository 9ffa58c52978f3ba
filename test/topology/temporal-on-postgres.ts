/**
 * The real Temporal server on a throw-away PostgreSQL for the topology tests, set up with the
 * schema and namespace scripts docker-compose.yml runs (scripts/temporal-server.ts).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { startPostgres, type RunningPostgres } from '../../scripts/postgres';
import { resolveTemporalCli } from '../../scripts/temporal-cli';
import { freePort } from '../../scripts/temporal-dev-server';
import {
  freeServerPorts,
  resolveTemporalServerTools,
  setupNamespace,
  setupSchema,
  startTemporalServer,
  type RunningTemporalServer,
} from '../../scripts/temporal-server';

export interface TemporalOnPostgres {
  server: RunningTemporalServer;
  postgres: RunningPostgres;
  /** Stops the server, then PostgreSQL. */
  stop(): Promise<void>;
}

/** Starts PostgreSQL, creates the schema, starts the server (its log in `logDir`) and sets up `namespace`. */
export async function startTemporalOnPostgres(logDir: string, namespace: string): Promise<TemporalOnPostgres> {
  const tools = resolveTemporalServerTools();
  const postgres = await startPostgres({
    port: await freePort(),
    logFile: path.join(os.tmpdir(), `ndc-saga-topology-pg-${process.pid}-${Date.now()}.log`),
  });
  try {
    await setupSchema(tools.sqlTool, postgres);
    const server = await startTemporalServer({
      bin: tools.server,
      db: postgres,
      ports: await freeServerPorts(),
      logFile: path.join(logDir, 'temporal-server.log'),
    });
    try {
      await setupNamespace(resolveTemporalCli().path, server.address, namespace);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return {
      server,
      postgres,
      stop: async () => {
        await server.stop(5000);
        await postgres.stop();
      },
    };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}
