/**
 * `npm run bench -- airline`: day searches (round trip LGW-OSL, 2 ADT + 1 CHD)
 * against the airline service over keep-alive HTTP at concurrency 32 for a
 * fixed time, and in the same run the same load against a plain `node:http`
 * server answering a pre-built response of the same size. Each server runs in
 * its own child process (as in production); the load generator runs here, in
 * a process that does nothing else. Its default client is a lean raw-socket
 * one (node:http's client, `BENCH_AIRLINE_CLIENT=http`, costs more CPU per
 * request than the plain server and made it client-bound). Prints requests/s
 * of each, the server's CPU time per request, and the ratios (target: at
 * least 50%).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testAirlineConfig } from '../src/airline/airline.config';
import { createAirlineApp } from '../src/airline/airline.module';
import { encodeAirShoppingRq } from '../src/ndc';

const CONCURRENCY = 32;
const DURATION_MS = Number(process.env.BENCH_AIRLINE_SECONDS ?? 10) * 1000;
const WARMUP_MS = Number(process.env.BENCH_AIRLINE_WARMUP_SECONDS ?? 2) * 1000;
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
  /** The kernel's part of {@link serverCpuPerRequest} (system time: mostly socket reads and writes). */
  serverSystemPerRequest?: number;
}

/**
 * Drives `CONCURRENCY` keep-alive loops for `ms` milliseconds with the lean
 * client (default) or, with `BENCH_AIRLINE_CLIENT=http`, with node:http's client.
 */
function load(port: number, body: string, ms: number): Promise<LoadResult> {
  return process.env.BENCH_AIRLINE_CLIENT === 'http' ? httpLoad(port, body, ms) : rawLoad(port, body, ms);
}

/** The request of {@link rawLoad}: the headers node:http's client sends for `post`, and the body. */
function rawRequest(port: number, body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const head =
    `POST /retail/offers HTTP/1.1\r\nAuthorization: ${AUTH}\r\nContent-Type: ${MEDIA}\r\nAccept: ${MEDIA}\r\n` +
    `Host: 127.0.0.1:${port}\r\nConnection: keep-alive\r\nContent-Length: ${bytes.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

const enum Wire {
  Head,
  Body,
  ChunkSize,
  ChunkData,
  LastCrlf,
}

/**
 * The lean load generator: one socket per loop writing a pre-encoded request
 * and framing the response by hand (Content-Length or chunked; body bytes are
 * counted, not copied). node:http's client costs about as much CPU per request
 * as the plain server itself, so with it the plain server is client-bound.
 */
function rawLoad(port: number, body: string, ms: number): Promise<LoadResult> {
  const requestBytes = rawRequest(port, body);
  const deadline = Date.now() + ms;
  const started = process.hrtime.bigint();
  let requests = 0;
  let failures = 0;
  let responseBytes = 0;
  const loop = () =>
    new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      let carry: Buffer | undefined;
      let state = Wire.Head;
      let remaining = 0;
      let status = 0;
      let chunked = false;
      let bytes = 0;
      const complete = () => {
        if (status === 200) {
          requests++;
          responseBytes = bytes;
        } else failures++;
        state = Wire.Head;
        bytes = 0;
        if (Date.now() < deadline) socket.write(requestBytes);
        else socket.end();
      };
      socket.on('connect', () => socket.write(requestBytes));
      socket.on('data', (chunk: Buffer) => {
        const data = carry ? Buffer.concat([carry, chunk]) : chunk;
        carry = undefined;
        let i = 0;
        while (i < data.length) {
          if (state === Wire.Head || state === Wire.ChunkSize) {
            const end = data.indexOf(state === Wire.Head ? '\r\n\r\n' : '\r\n', i);
            if (end < 0) {
              carry = data.subarray(i);
              return;
            }
            const text = data.toString('latin1', i, end);
            if (state === Wire.Head) {
              i = end + 4;
              status = Number(text.slice(9, 12));
              chunked = /\r\ntransfer-encoding:\s*chunked/i.test(text);
              remaining = chunked ? 0 : Number(/\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1] ?? 0);
              bytes = remaining;
              state = chunked ? Wire.ChunkSize : Wire.Body;
              if (!chunked && remaining === 0) complete();
            } else {
              i = end + 2;
              const size = parseInt(text, 16);
              bytes += size;
              remaining = size + 2;
              state = size === 0 ? Wire.LastCrlf : Wire.ChunkData;
              if (size === 0) remaining = 2;
            }
            continue;
          }
          const take = Math.min(remaining, data.length - i);
          i += take;
          remaining -= take;
          if (remaining > 0) continue;
          if (state === Wire.ChunkData) state = Wire.ChunkSize;
          else complete();
        }
      });
      socket.on('error', () => {
        failures++;
        resolve();
      });
      socket.on('close', () => resolve());
    });
  return Promise.all(Array.from({ length: CONCURRENCY }, loop)).then(() => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { requests, failures, seconds, perSecond: requests / seconds, responseBytes };
  });
}

/** {@link load} with node:http's client and a keep-alive Agent. */
async function httpLoad(port: number, body: string, ms: number): Promise<LoadResult> {
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
      res.writeHead(200, { 'Content-Type': MEDIA, 'Keep-Alive': 'timeout=60', Vary: 'Accept-Encoding' });
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

/** CPU time (user and system, microseconds) the server child has used so far. */
function serverCpu(child: ChildProcess): Promise<NodeJS.CpuUsage> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const cpu = (m as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      child.off('message', onMessage);
      resolve(cpu);
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

/** A server under test: its child process, port and what has been measured of it so far. */
interface Subject {
  label: string;
  child: ChildProcess;
  port: number;
  total: LoadResult & { cpuUser: number; cpuSystem: number };
  rounds: LoadResult[];
}

async function startSubject(label: string, args: string[]): Promise<Subject> {
  const { child, port } = await startChild(args);
  const total = { requests: 0, failures: 0, seconds: 0, perSecond: 0, responseBytes: 0, cpuUser: 0, cpuSystem: 0 };
  return { label, child, port, total, rounds: [] };
}

/** One measured window of `ms` on `s`, added to its totals. */
async function measureWindow(s: Subject, body: string, ms: number): Promise<LoadResult> {
  const before = await serverCpu(s.child);
  const r = await load(s.port, body, ms);
  const after = await serverCpu(s.child);
  const t = s.total;
  t.requests += r.requests;
  t.failures += r.failures;
  t.seconds += r.seconds;
  t.perSecond = t.requests / t.seconds;
  t.responseBytes = r.responseBytes || t.responseBytes;
  t.cpuUser += after.user - before.user;
  t.cpuSystem += after.system - before.system;
  const served = Math.max(1, t.requests + t.failures);
  t.serverSystemPerRequest = t.cpuSystem / served;
  t.serverCpuPerRequest = (t.cpuUser + t.cpuSystem) / served;
  s.rounds.push(r);
  return r;
}

function report(s: Subject): void {
  const r = s.total;
  process.stdout.write(
    `${s.label.padEnd(28)} ${r.perSecond.toFixed(0).padStart(7)} req/s  (${r.requests} in ${r.seconds.toFixed(1)} s, ` +
      `${r.failures} failed, ${r.responseBytes} bytes per response, server CPU ${(r.serverCpuPerRequest ?? 0).toFixed(1)} us/request, ` +
      `${(r.serverSystemPerRequest ?? 0).toFixed(1)} of it in the kernel)\n`,
  );
}

/** Rounds of the airline / plain comparison (`BENCH_AIRLINE_ROUNDS`, default 5). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_AIRLINE_ROUNDS ?? 5));

/** Entry point for `npm run bench -- airline`. */
export async function run(): Promise<void> {
  const body = benchRequest();
  const slice = DURATION_MS / ROUNDS;
  process.stdout.write(
    `day search round trip LGW-OSL, 2 ADT + 1 CHD; keep-alive, concurrency ${CONCURRENCY}, identity encoding, ` +
      `servers in child processes, ${process.env.BENCH_AIRLINE_CLIENT === 'http' ? "node:http's client" : 'lean raw-socket client'}; ` +
      `airline and plain server measured ${DURATION_MS / 1000} s each, in ${ROUNDS} alternating rounds of ${(slice / 1000).toFixed(1)} s ` +
      `(after ${WARMUP_MS / 1000} s warm-up each)\n`,
  );
  const airline = await startSubject('airline (NestJS, NDC)', ['airline']);
  let plain: Subject | undefined;
  try {
    const warm = await load(airline.port, body, WARMUP_MS);
    if (warm.responseBytes === 0) throw new Error('the airline answered no successful search');
    plain = await startSubject('plain node:http (same size)', ['plain', String(warm.responseBytes)]);
    await load(plain.port, body, WARMUP_MS);
    // Alternating rounds: a change in how busy the shared machine is hits both servers alike.
    for (let i = 0; i < ROUNDS; i++) {
      await measureWindow(airline, body, slice);
      await measureWindow(plain, body, slice);
    }
  } finally {
    await stopChild(airline.child);
    if (plain) await stopChild(plain.child);
  }
  report(airline);
  report(plain);
  const perRound = airline.rounds.map((r, i) => (r.perSecond / plain!.rounds[i].perSecond) * 100);
  process.stdout.write(
    `ratio airline / plain: ${((airline.total.perSecond / plain.total.perSecond) * 100).toFixed(1)}% (target >= 50%); ` +
      `per round ${perRound.map((p) => `${p.toFixed(1)}%`).join(', ')}\n`,
  );
  // Server CPU per request is steadier than requests/s on a shared machine.
  const cpuRatio = (a: Subject) => ((plain!.total.serverCpuPerRequest ?? 0) / (a.total.serverCpuPerRequest ?? 1)) * 100;
  process.stdout.write(`server CPU per request, plain / airline: ${cpuRatio(airline).toFixed(1)}%\n`);
  // BENCH_AIRLINE_SKIP_UNCACHED=1 leaves out the run without the cache (quicker iterations).
  if (process.env.BENCH_AIRLINE_SKIP_UNCACHED) return;
  const uncached = await startSubject('airline, no shopping cache', ['airline-nocache']);
  try {
    await load(uncached.port, body, WARMUP_MS);
    await measureWindow(uncached, body, DURATION_MS);
  } finally {
    await stopChild(uncached.child);
  }
  report(uncached);
  process.stdout.write(
    `without the shopping cache: ${((uncached.total.perSecond / plain.total.perSecond) * 100).toFixed(1)}% of plain by requests/s, ` +
      `${cpuRatio(uncached).toFixed(1)}% by server CPU per request\n`,
  );
}

if (process.argv[2] === '--serve') {
  childMain().catch((err: unknown) => {
    process.stderr.write(`bench server failed: ${String(err)}\n`);
    process.exit(1);
  });
}
