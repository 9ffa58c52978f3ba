/**
 * Jest global teardown: stops the Temporal dev server started by global-setup.ts (whole process
 * group) and removes its log, unless TEMPORAL_TEST_KEEP_LOG=1.
 */
import * as fs from 'node:fs';
import type { DevServer } from '../../scripts/temporal-dev-server';
import { DEV_SERVER_KEY } from './global-setup';

type GlobalWithServer = typeof globalThis & { [DEV_SERVER_KEY]?: DevServer };

export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as GlobalWithServer;
  const server = holder[DEV_SERVER_KEY];
  if (server === undefined) return;
  delete holder[DEV_SERVER_KEY];
  delete process.env.TEMPORAL_TEST_ADDRESS;
  await server.stop();
  if (server.logFile !== undefined && process.env.TEMPORAL_TEST_KEEP_LOG !== '1') {
    fs.rmSync(server.logFile, { force: true });
  }
}
