/**
 * The executable of Temporal's time-skipping test server, for `TestWorkflowEnvironment
 * .createTimeSkipping` (the SDK's own download from temporal.download is not reachable from CI).
 *
 * In this order: `$TEMPORAL_TIME_SKIPPING_SERVER` (path of a `temporal-test-server` binary or
 * wrapper); else the server of the Java SDK (`io.temporal:temporal-test-server` from Maven
 * Central), fetched once with `mvn dependency:copy-dependencies` into the git-ignored
 * `.tools/temporal-test-server/`, with a wrapper script that runs it on `java`. Needs `java` (17+)
 * and `mvn` on PATH the first time.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as net from 'node:net';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { freePort } from '../../scripts/temporal-dev-server';

/** Version of the Java SDK's test server (Maven Central). */
export const TEST_SERVER_VERSION = '1.31.0';

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(ROOT, '.tools', 'temporal-test-server', TEST_SERVER_VERSION);

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>ndc-saga.tools</groupId>
  <artifactId>temporal-test-server</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${TEST_SERVER_VERSION}</version>
    </dependency>
  </dependencies>
</project>
`;

/** Path of an executable that starts the test server on the port given as its first argument. */
export function timeSkippingServerPath(): string {
  const configured = process.env.TEMPORAL_TIME_SKIPPING_SERVER;
  if (configured !== undefined && configured !== '') return configured;
  const wrapper = path.join(DIR, 'temporal-test-server');
  if (fs.existsSync(wrapper)) return wrapper;
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(path.join(DIR, 'pom.xml'), POM);
  const lib = path.join(DIR, 'lib');
  try {
    execFileSync('mvn', ['-q', '-B', '-f', path.join(DIR, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${lib}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
  } catch (error) {
    throw new Error(
      `cannot provision Temporal's time-skipping test server with mvn (set TEMPORAL_TIME_SKIPPING_SERVER to a ` +
        `temporal-test-server executable instead): ${(error as Error).message}`,
    );
  }
  // Written last, so a half-finished download is retried next time.
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\n# Temporal's time-skipping test server (Java SDK ${TEST_SERVER_VERSION}); first argument: port.\n` +
      `exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp "$(dirname "$0")/lib/*" io.temporal.testserver.TestServer "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

/** A time-skipping test environment on a test server this process started and owns. */
export interface TimeSkippingEnv {
  env: TestWorkflowEnvironment;
  /** Tears the environment down and stops the server. */
  stop(): Promise<void>;
}

/** What `TestWorkflowEnvironment.create` takes (private in the typings; see {@link createTimeSkippingEnv}). */
type CreateEnv = (opts: {
  server: { type: 'existing' };
  address: string;
  namespace: string;
  supportsTimeSkipping: true;
  client?: { dataConverter?: DataConverter };
}) => Promise<TestWorkflowEnvironment>;

/**
 * Starts the time-skipping test server (see {@link timeSkippingServerPath}) on a free port, waits
 * until it accepts connections (however long a busy machine's JVM takes: the SDK's own
 * `createTimeSkipping` gives it 5 s and failed CI runs that way), then connects a time-skipping
 * `TestWorkflowEnvironment` to it. The SDK builds every environment with its `create`, which the
 * typings mark private; `createTimeSkipping` is that call plus the 5 s start.
 */
export async function createTimeSkippingEnv(client?: { dataConverter?: DataConverter }): Promise<TimeSkippingEnv> {
  const port = await freePort();
  const server = spawn(timeSkippingServerPath(), [String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code, signal) => reject(new Error(`time-skipping test server exited (${code ?? signal}): ${stderr}`))),
  );
  exited.catch(() => undefined);
  const stopServer = async (): Promise<void> => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGTERM');
    await gone;
  };
  try {
    await Promise.race([acceptsConnections('127.0.0.1', port), exited]);
    const create = (TestWorkflowEnvironment as unknown as { create: CreateEnv }).create.bind(TestWorkflowEnvironment);
    const env = await create({
      server: { type: 'existing' },
      address: `127.0.0.1:${port}`,
      namespace: 'default',
      supportsTimeSkipping: true,
      ...(client !== undefined ? { client } : {}),
    });
    return {
      env,
      stop: async () => {
        await env.teardown();
        await stopServer();
      },
    };
  } catch (error) {
    await stopServer();
    throw error;
  }
}

/** Resolves once `host:port` accepts a TCP connection (polled every 100 ms). */
async function acceptsConnections(host: string, port: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
