/**
 * `npm run bench -- airline`: what a real search costs against what encoding
 * its answer costs. Uncached day searches (round trip LGW-OSL, 2 ADT + 1 CHD)
 * go to the airline service over keep-alive HTTP at concurrency 32; the
 * server runs in a child process (as in production) and its CPU time per
 * search is measured. In the same run, alternating with the searches, the
 * server process times the codec encoding the same answer alone (the
 * AirShoppingRS model decoded from one of its answers), with the same heap
 * and JIT state as its searches. Prints both and the ratio
 * `uncached search / encode alone = N.NNx` (target: at most 1.30x, i.e. auth,
 * reading and decoding the request, the search, the store and HTTP together
 * at most 30% of the encode). The load generator is a lean raw-socket client
 * (`BENCH_AIRLINE_CLIENT=http`: node:http's client).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { testAirlineConfig } from '../src/airline/airline.config';
import { createAirlineApp } from '../src/airline/airline.module';
import { type AirShoppingRs, decodeAirShoppingRs, encodeAirShoppingRq, encodeAirShoppingRs } from '../src/ndc';

const CONCURRENCY = Math.max(1, Number(process.env.BENCH_AIRLINE_CONCURRENCY ?? 32));
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

// ------------------------------------------------------------------ the server (child process)

async function serveAirline(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'airline-bench-'));
  const app = await createAirlineApp(testAirlineConfig({ dbPath: join(dir, 'airline.db') }));
  await app.listen(0, '127.0.0.1');
  process.on('disconnect', () => {
    void app.close().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  return (app.getHttpServer().address() as { port: number }).port;
}

async function childMain(): Promise<void> {
  const port = await serveAirline();
  let model: AirShoppingRs | undefined;
  process.on('message', (m) => {
    if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    const order = m as { answer?: string; encodeMs?: number };
    if (order.answer !== undefined) model = decodeAirShoppingRs(order.answer);
    if (order.encodeMs !== undefined && model) {
      const total = { encodes: 0, cpu: 0, bytes: 0 };
      encodeWindow(model, order.encodeMs, total);
      process.send?.({ encoded: total });
    }
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
    const prof = process.env.BENCH_AIRLINE_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_AIRLINE_PROFILE}`]
      : [];
    const child = fork(__filename, ['--serve', ...args], {
      execArgv: [
        ...prof,
        ...(process.env.BENCH_AIRLINE_NODE_FLAGS ?? '').split(' ').filter(Boolean),
        '-r',
        '@swc-node/register',
      ],
      stdio: 'inherit',
    });
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

/** The server under test: its child process, port and what has been measured of it so far. */
interface Subject {
  label: string;
  child: ChildProcess;
  port: number;
  total: LoadResult & { cpuUser: number; cpuSystem: number };
  rounds: LoadResult[];
}

async function startSubject(label: string): Promise<Subject> {
  const { child, port } = await startChild([]);
  const total = { requests: 0, failures: 0, seconds: 0, perSecond: 0, responseBytes: 0, cpuUser: 0, cpuSystem: 0 };
  return { label, child, port, total, rounds: [] };
}

/** One measured window of `ms` on `s`, added to its totals; returns the window's server CPU per request (us). */
async function measureWindow(s: Subject, body: string, ms: number): Promise<number> {
  const before = await serverCpu(s.child);
  const r = await load(s.port, body, ms);
  const after = await serverCpu(s.child);
  const t = s.total;
  t.requests += r.requests;
  t.failures += r.failures;
  t.seconds += r.seconds;
  t.perSecond = t.requests / t.seconds;
  t.responseBytes = r.responseBytes || t.responseBytes;
  const user = after.user - before.user;
  const system = after.system - before.system;
  t.cpuUser += user;
  t.cpuSystem += system;
  const served = Math.max(1, t.requests + t.failures);
  t.serverSystemPerRequest = t.cpuSystem / served;
  t.serverCpuPerRequest = (t.cpuUser + t.cpuSystem) / served;
  s.rounds.push(r);
  return (user + system) / Math.max(1, r.requests + r.failures);
}

/** The encode-alone measurement: CPU time of this process per encoding of `model`. */
interface EncodeTotal {
  encodes: number;
  cpu: number;
  bytes: number;
}

/** Encodes `model` repeatedly for `ms`; returns the CPU time per encode (us) and adds to `total`. */
function encodeWindow(model: AirShoppingRs, ms: number, total: EncodeTotal): number {
  const deadline = Date.now() + ms;
  const before = process.cpuUsage();
  let n = 0;
  do {
    total.bytes = Buffer.byteLength(encodeAirShoppingRs(model), 'utf8');
    n++;
  } while (Date.now() < deadline);
  const used = process.cpuUsage(before);
  total.encodes += n;
  total.cpu += used.user + used.system;
  return (used.user + used.system) / n;
}

/** Times the encode alone inside the server process (same heap and JIT state as its searches) for `ms`. */
function encodeInServer(child: ChildProcess, ms: number, total: EncodeTotal): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const encoded = (m as { encoded?: EncodeTotal }).encoded;
      if (!encoded) return;
      child.off('message', onMessage);
      total.encodes += encoded.encodes;
      total.cpu += encoded.cpu;
      total.bytes = encoded.bytes;
      resolve(encoded.cpu / encoded.encodes);
    };
    child.on('message', onMessage);
    child.send({ encodeMs: ms });
  });
}

/** One answer of the server to `body` (identity encoding), as text. */
function fetchAnswer(port: number, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/retail/offers',
        method: 'POST',
        headers: { Authorization: AUTH, 'Content-Type': MEDIA, Accept: MEDIA },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`search answered ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Rounds of the search / encode comparison (`BENCH_AIRLINE_ROUNDS`, default 5). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_AIRLINE_ROUNDS ?? 5));

/** Entry point for `npm run bench -- airline`. */
export async function run(): Promise<void> {
  const body = benchRequest();
  const slice = DURATION_MS / ROUNDS;
  process.stdout.write(
    `uncached day search round trip LGW-OSL, 2 ADT + 1 CHD; keep-alive, concurrency ${CONCURRENCY}, identity encoding, ` +
      `server in a child process, ${process.env.BENCH_AIRLINE_CLIENT === 'http' ? "node:http's client" : 'lean raw-socket client'}; ` +
      `searches and the encode alone measured ${DURATION_MS / 1000} s each, in ${ROUNDS} alternating rounds of ${(slice / 1000).toFixed(1)} s ` +
      `(after ${WARMUP_MS / 1000} s warm-up each); load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
  );
  const airline = await startSubject('airline (NestJS, NDC)');
  const encode: EncodeTotal = { encodes: 0, cpu: 0, bytes: 0 };
  const ratios: number[] = [];
  try {
    const warm = await load(airline.port, body, WARMUP_MS);
    if (warm.responseBytes === 0) throw new Error('the airline answered no successful search');
    airline.child.send({ answer: await fetchAnswer(airline.port, body) });
    await encodeInServer(airline.child, WARMUP_MS, { encodes: 0, cpu: 0, bytes: 0 });
    // Alternating rounds: a change in how busy the shared machine is hits both alike.
    for (let i = 0; i < ROUNDS; i++) {
      const search = await measureWindow(airline, body, slice);
      ratios.push(search / (await encodeInServer(airline.child, slice, encode)));
    }
  } finally {
    await stopChild(airline.child);
  }
  const t = airline.total;
  const encodeUs = encode.cpu / Math.max(1, encode.encodes);
  process.stdout.write(
    `uncached search (server, HTTP round trip) ${t.perSecond.toFixed(0).padStart(6)} req/s (${t.requests} in ${t.seconds.toFixed(1)} s, ` +
      `${t.failures} failed, ${t.responseBytes} bytes per answer), server CPU ${((t.serverCpuPerRequest ?? 0) / 1000).toFixed(3)} ms/search, ` +
      `${((t.serverSystemPerRequest ?? 0) / 1000).toFixed(3)} of it in the kernel\n`,
  );
  process.stdout.write(
    `encode alone (codec, same answer, in the server) ${(encodeUs / 1000).toFixed(3)} ms/encode (${encode.encodes} encodes, ${encode.bytes} bytes)\n`,
  );
  process.stdout.write(
    `uncached search / encode alone = ${((t.serverCpuPerRequest ?? 0) / encodeUs).toFixed(2)}x (target <= 1.30x); ` +
      `per round ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}\n`,
  );
}
if (process.argv[2] === '--serve') {
  childMain().catch((err: unknown) => {
    process.stderr.write(`bench server failed: ${String(err)}\n`);
    process.exit(1);
  });
}
