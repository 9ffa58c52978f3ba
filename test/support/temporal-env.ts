/**
 * Access to the Temporal dev server that jest's global setup starts for the test files that
 * import this module (see docs/operations.md, "Tests").
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

const NOT_RUNNING =
  'TEMPORAL_TEST_ADDRESS is not set: the Temporal test server is not running. It is started by ' +
  'test/support/global-setup.ts when a selected test file imports test/support/temporal-env ' +
  '(check jest.config.js globalSetup/testSequencer and TEMPORAL_TEST_SERVER, which must not be "never").';

/** `host:port` of the Temporal test server. Throws a clear error when it is not running. */
export function temporalTestAddress(): string {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (address === undefined || address === '') throw new Error(NOT_RUNNING);
  return address;
}

/** Namespace of the Temporal test server (`default`). */
export function temporalTestNamespace(): string {
  return process.env.TEMPORAL_TEST_NAMESPACE ?? 'default';
}

/**
 * Path of the Temporal CLI the test server runs from, for tests that inspect histories
 * (`temporal workflow show --output json --address ...`). Throws when the server is not running.
 */
export function temporalTestCli(): string {
  const cli = process.env.TEMPORAL_TEST_CLI;
  if (cli === undefined || cli === '') throw new Error(NOT_RUNNING);
  return cli;
}

/**
 * The history of `workflowId` as an operator sees it, `temporal workflow show --output json`: the
 * canonical proto JSON that `historyFromJSON` reads back. `namespace` defaults to the test server's.
 */
export async function workflowHistoryJson(workflowId: string, namespace = temporalTestNamespace()): Promise<string> {
  const args = ['workflow', 'show', '--output', 'json', '--address', temporalTestAddress()];
  const { stdout } = await promisify(execFile)(
    temporalTestCli(),
    [...args, '--namespace', namespace, '--workflow-id', workflowId],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/**
 * A task queue name no other test file uses: test files share one server and run in parallel,
 * so each must poll its own queue.
 */
export function uniqueTaskQueue(prefix: string): string {
  return `${prefix}-${process.pid}-${randomUUID().slice(0, 8)}`;
}
