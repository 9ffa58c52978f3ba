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
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { BookingIntent, BookingWorkflowOptions } from '../../src/booking/booking.model';
import { createDataConverter } from '../../src/temporal/data-converter';
import { BOOKING_SEARCH_ATTRIBUTE_KEYS } from '../../src/temporal/search-attributes';
import type { SendWebhookEventInput } from '../../src/webhooks/webhook.model';
import type { bookingWorkflow } from '../../workflows';
import {
  delegatingActivities,
  oneWayIntent,
  quietRuntime,
  workflowBundle,
  type ActivityMocks,
} from './booking.fixtures';

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
    execFileSync(
      'mvn',
      ['-q', '-B', '-f', path.join(DIR, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${lib}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 300_000,
      },
    );
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

/** A time-skipping test server this process started, and how to stop it. */
export interface RunningTimeSkippingServer {
  /** `127.0.0.1:<port>` */
  address: string;
  stop(): Promise<void>;
}

/**
 * Starts the time-skipping test server and waits until its port accepts connections (polling,
 * up to `deadlineMs`, default 90 s). The SDK's own launcher gives a server 5 s, which a JVM on a
 * busy 2-core CI machine (the whole suite running) does not always make.
 */
export async function startTimeSkippingServer(deadlineMs = 90_000): Promise<RunningTimeSkippingServer> {
  const executable = timeSkippingServerPath();
  const port = await new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(executable, [String(port)], { stdio: 'ignore', detached: false });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (exited) throw new Error(`the time-skipping test server (${executable}) exited before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the time-skipping test server did not listen on ${port} within ${deadlineMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    address: `127.0.0.1:${port}`,
    async stop() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/**
 * A time-skipping `TestWorkflowEnvironment` on a server started by {@link startTimeSkippingServer}.
 * The SDK builds one only around a server it launched itself (with its 5 s start limit); its
 * internal `create` does the same around an existing address, which is what this calls.
 */
export async function createTimeSkippingEnvironment(
  server: RunningTimeSkippingServer,
  client: { dataConverter: DataConverter },
): Promise<TestWorkflowEnvironment> {
  const internal = TestWorkflowEnvironment as unknown as {
    create(opts: Record<string, unknown>): Promise<TestWorkflowEnvironment>;
  };
  return internal.create({ server: { type: 'existing' }, address: server.address, supportsTimeSkipping: true, client });
}

/** Booking workflows on a time-skipping test server, as {@link timeSkippingBookings} runs them. */
export interface TimeSkippingBookings {
  /** The environment (`env.sleep` skips workflow time); set once the file's `beforeAll` has run. */
  readonly env: TestWorkflowEnvironment;
  /** The webhook events the workflows sent (the agency has no registry here: recorded, not signalled). */
  readonly sentEvents: SendWebhookEventInput[];
  /** Starts a `bookingWorkflow` on the worker's task queue, id `<taskQueue>-<n>`. */
  start(
    intent?: BookingIntent,
    options?: BookingWorkflowOptions,
  ): Promise<WorkflowHandleWithFirstExecutionRunId<typeof bookingWorkflow>>;
}

/**
 * The harness of the time-skipping booking specs: registers the file's `beforeAll` (a test
 * server, the booking search attributes, one worker on `taskQueue` whose activities delegate to
 * `mocks()`) and `afterAll` (all of it stopped). Call it inside the spec's `describe`.
 */
export function timeSkippingBookings(taskQueue: string, mocks: () => ActivityMocks): TimeSkippingBookings {
  let server: RunningTimeSkippingServer | undefined;
  let env: TestWorkflowEnvironment | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let sequence = 0;
  const sentEvents: SendWebhookEventInput[] = [];
  const ready = (): TestWorkflowEnvironment => {
    if (env === undefined) throw new Error('the time-skipping environment is not started (beforeAll)');
    return env;
  };

  beforeAll(async () => {
    quietRuntime();
    server = await startTimeSkippingServer();
    env = await createTimeSkippingEnvironment(server, { dataConverter: createDataConverter() });
    // The test server has no ListSearchAttributes: add them directly (Keyword = 2).
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(BOOKING_SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, 2])),
    });
    worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: {
        sendWebhookEvent: async (input: SendWebhookEventInput) => {
          sentEvents.push(input);
          return false;
        },
        ...delegatingActivities(mocks),
      },
      dataConverter: createDataConverter(),
    });
    running = worker.run();
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
    await server?.stop();
  });

  return {
    get env() {
      return ready();
    },
    sentEvents,
    start(intent = oneWayIntent(), options) {
      sequence += 1;
      return ready().client.workflow.start<typeof bookingWorkflow>('bookingWorkflow', {
        taskQueue,
        workflowId: `${taskQueue}-${sequence}`,
        args: options !== undefined ? [intent, options] : [intent],
      });
    },
  };
}
