/**
 * `src/worker/main.ts` as a real process for the tests that need what only the process has (its
 * readiness, the SDK core's metrics): started against the jest Temporal server with a prebuilt
 * workflow bundle, its HTTP server on a free loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pollUntil } from '../workflows/booking.fixtures';
import { temporalTestAddress } from './temporal-env';

const ROOT = path.resolve(__dirname, '..', '..');
const HEALTH_LINE = /health (\S+)\/health\/ready/;

export interface WorkerProcess {
  /** `http://127.0.0.1:<port>` of its health and metrics server. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
  child: ChildProcess;
  /** SIGTERM, then resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts the worker with `env` over the defaults; resolves once it logs its start-up line. */
export async function startWorkerProcess(bundlePath: string, env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/worker/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TEMPORAL_ADDRESS: temporalTestAddress(),
      AIRLINE_BASE_URL: 'http://127.0.0.1:9',
      WORKFLOW_BUNDLE_PATH: bundlePath,
      WORKER_HTTP_PORT: '0',
      WORKER_HTTP_HOST: '127.0.0.1',
      WORKER_SHUTDOWN_GRACE_MS: '500',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The deadline is a safety net for a hung start; the start-up line is the signal.
  const text = await pollUntil(
    async () => output,
    (t) => HEALTH_LINE.test(t) || child.exitCode !== null,
    240_000,
  );
  if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
  return {
    url: HEALTH_LINE.exec(text)![1]!,
    output: () => output,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
