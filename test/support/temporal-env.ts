/**
 * Access to the Temporal dev server that jest's global setup starts for the test files that
 * import this module (see docs/operations.md, "Tests").
 */
import { randomUUID } from 'node:crypto';

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
 * A task queue name no other test file uses: test files share one server and run in parallel,
 * so each must poll its own queue.
 */
export function uniqueTaskQueue(prefix: string): string {
  return `${prefix}-${process.pid}-${randomUUID().slice(0, 8)}`;
}
