/**
 * `npm run bench -- airline`: day searches (round trip LGW-OSL, 2 ADT + 1 CHD)
 * against the airline service over keep-alive HTTP at concurrency 32 for a
 * fixed time, and in the same run the same load against a plain `node:http`
 * server answering a pre-built response of the same size. Each server runs in
 * its own child process (as in production); the load generator runs here.
 * Prints requests/s of both and the ratio (target: at least 50%).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testAirlineConfig } from '../src/airline/airline.config';
import { createAirlineApp } from '../src/airline/airline.module';
import { encodeAirShoppingRq } from '../src/ndc';

const CONCURRENCY = 32;
const DURATION_MS = Number(process.env.BENCH_AIRLINE_SECONDS ?? 10) * 1000;
const WARMUP_MS = 2000;
const AUTH = `Basic ${Buffer.from('agency:agency-secret').toString('base64')}`;
const MEDIA = 'application/vnd.ndcsaga.ndc.v17.2+xml;charset=UTF-8';

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The AirShoppingRQ of the benchmark: round trip, 2 ADT + 1 CHD. */
export function benchRequest(): string {
  return encodeAirShoppingRq({
    target: 'Test',
    version: '17.2',
    timeStamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    transactionIdentifier: 'BENCH',
    correlationId: 'BENCH',
    pointOfSaleCountry: 'GB',
    party: { name: 'Bench Travel', agencyId: 'BENCH01' },
    parameters: { languages: ['EN'], overrideCurrency: 'GBP' },
    coreQuery: {
      kind: 'day',
      originDestinations: [
        { departureCode: 'LGW', arrivalCode: 'OSL', date: inDays(30) },
        { departureCode: 'OSL', arrivalCode: 'LGW', date: inDays(37) },
      ],
    },
    passengers: [
      { passengerId: 'PAX__ADT01', ptc: 'ADT' },
      { passengerId: 'PAX__ADT02', ptc: 'ADT' },
      { passengerId: 'PAX__CHD01', ptc: 'CHD' },
    ],
  });
}

interface Exchange {
  status: number;
  bytes: number;
}

function post(agent: Agent, port: number, body: string): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/retail/offers',
        method: 'POST',
        agent,
        headers: { Authorization: AUTH, 'Content-Type': MEDIA, Accept: MEDIA },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface LoadResult {
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  responseBytes: number;
  /** CPU time of the server process per request (microseconds), set by {@link measure}. */
  serverCpuPerRequest?: number;
}

/** Drives `CONCURRENCY` keep-alive loops for `ms` milliseconds. */
async function load(port: number, body: string, ms: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let requests = 0;
  let failures = 0;
  let responseBytes = 0;
  const started = process.hrtime.bigint();
  const deadline = Date.now() + ms;
  const loop = async () => {
    while (Date.now() < deadline) {
      try {
        const r = await post(agent, port, body);
        if (r.status === 200) {
          requests++;
          responseBytes = r.bytes;
        } else failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return { requests, failures, seconds, perSecond: requests / seconds, responseBytes };
}

// ------------------------------------------------------------------ servers (child processes)

async function serveAirline(shoppingCache: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'airline-bench-'));
  // BENCH_AIRLINE_DIRECT=0: every request through Express's router (for comparison).
  const app = await createAirlineApp(testAirlineConfig({ dbPath: join(dir, 'airline.db'), shoppingCache }), {
    directRoutes: process.env.BENCH_AIRLINE_DIRECT !== '0',
  });
  await app.listen(0, '127.0.0.1');
  process.on('disconnect', () => {
    void app.close().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  return (app.getHttpServer().address() as { port: number }).port;
}

function servePlain(size: number): Promise<number> {
  const body = Buffer.alloc(size, 'x');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': MEDIA, 'Keep-Alive': 'timeout=60' });
      res.write(body);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  process.on('disconnect', () => server.close(() => process.exit(0)));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

async function childMain(): Promise<void> {
  const kind = process.argv[3];
  const port =
    kind === 'airline' || kind === 'airline-nocache'
      ? await serveAirline(kind === 'airline')
      : await servePlain(Number(process.argv[4]));
  process.on('message', (m) => {
    if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.send?.({ port });
}

/** CPU time (user + system, microseconds) the server child has used so far. */
function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const cpu = (m as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      child.off('message', onMessage);
      resolve(cpu.user + cpu.system);
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

function startChild(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const prof = process.env.BENCH_AIRLINE_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_AIRLINE_PROFILE}`] : [];
    const child = fork(__filename, ['--serve', ...args], { execArgv: [...prof, '-r', '@swc-node/register'], stdio: 'inherit' });
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.disconnect();
  });
}

async function measure(label: string, args: string[], body: string): Promise<LoadResult> {
  const { child, port } = await startChild(args);
  try {
    await load(port, body, WARMUP_MS);
    const cpuBefore = await serverCpu(child);
    const r = await load(port, body, DURATION_MS);
    r.serverCpuPerRequest = (await serverCpu(child)) - cpuBefore;
    r.serverCpuPerRequest /= Math.max(1, r.requests + r.failures);
    process.stdout.write(
      `${label.padEnd(28)} ${r.perSecond.toFixed(0).padStart(7)} req/s  (${r.requests} in ${r.seconds.toFixed(1)} s, ` +
        `${r.failures} failed, ${r.responseBytes} bytes per response, server CPU ${r.serverCpuPerRequest.toFixed(0)} us/request)\n`,
    );
    return r;
  } finally {
    await stopChild(child);
  }
}

/** Entry point for `npm run bench -- airline`. */
export async function run(): Promise<void> {
  const body = benchRequest();
  process.stdout.write(
    `day search round trip LGW-OSL, 2 ADT + 1 CHD; keep-alive, concurrency ${CONCURRENCY}, ${DURATION_MS / 1000} s each ` +
      `(after ${WARMUP_MS / 1000} s warm-up), identity encoding, servers in child processes\n`,
  );
  // BENCH_AIRLINE_SKIP_UNCACHED=1 leaves out the run without the cache (quicker iterations).
  const airline = await measure('airline (NestJS, NDC)', ['airline'], body);
  if (airline.responseBytes === 0) throw new Error('the airline answered no successful search');
  const uncached = process.env.BENCH_AIRLINE_SKIP_UNCACHED
    ? undefined
    : await measure('airline, no shopping cache', ['airline-nocache'], body);
  const plain = await measure('plain node:http (same size)', ['plain', String(airline.responseBytes)], body);
  const pct = (r: LoadResult) => `${((r.perSecond / plain.perSecond) * 100).toFixed(1)}%`;
  process.stdout.write(
    `ratio airline / plain: ${pct(airline)} (target >= 50%)${uncached ? `; without the shopping cache: ${pct(uncached)}` : ''}\n`,
  );
}

if (process.argv[2] === '--serve') {
  childMain().catch((err: unknown) => {
    process.stderr.write(`bench server failed: ${String(err)}\n`);
    process.exit(1);
  });
}
