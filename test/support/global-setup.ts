/**
 * Jest global setup: starts one in-memory, headless `temporal server start-dev` on a random free
 * port for the whole run, when a selected test file needs it (see temporal-sequencer.js), and
 * exports its address to the test workers as TEMPORAL_TEST_ADDRESS / TEMPORAL_TEST_NAMESPACE.
 *
 * TEMPORAL_TEST_SERVER=always|never|auto (default auto) overrides the detection. When
 * TEMPORAL_TEST_ADDRESS is already set, that external server is used and nothing is started.
 */
import * as path from 'node:path';
import { resolveTemporalCli } from '../../scripts/temporal-cli';
import { startDevServer, type DevServer } from '../../scripts/temporal-dev-server';

/** Key under which the running server is handed to the global teardown (same process). */
export const DEV_SERVER_KEY = Symbol.for('ndc-saga.temporal-test-server');

type GlobalWithServer = typeof globalThis & { [DEV_SERVER_KEY]?: DevServer };

function selectedFilesNeedTemporal(): boolean {
  const mode = process.env.TEMPORAL_TEST_SERVER ?? 'auto';
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  if (mode !== 'auto') throw new Error(`TEMPORAL_TEST_SERVER must be always, never or auto, not "${mode}"`);
  const recorded = process.env.NDC_SAGA_TEMPORAL_TEST_FILES;
  // Without the sequencer's record (custom runner), be safe and start it.
  if (recorded === undefined) return true;
  return (JSON.parse(recorded) as string[]).length > 0;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.TEMPORAL_TEST_ADDRESS !== undefined && process.env.TEMPORAL_TEST_ADDRESS !== '') {
    process.env.TEMPORAL_TEST_NAMESPACE ??= 'default';
    return;
  }
  if (!selectedFilesNeedTemporal()) return;

  const root = path.resolve(__dirname, '..', '..');
  const cli = resolveTemporalCli().path;
  const server = await startDevServer({
    cli,
    headless: true,
    logFile: path.join(root, 'test', '.tmp', `temporal-dev-server-${process.pid}.log`),
  });
  (globalThis as GlobalWithServer)[DEV_SERVER_KEY] = server;
  process.env.TEMPORAL_TEST_ADDRESS = server.address;
  process.env.TEMPORAL_TEST_NAMESPACE = server.namespace;
  process.env.TEMPORAL_TEST_CLI = cli;
}
