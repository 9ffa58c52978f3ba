/**
 * The open bench on the real Temporal server on PostgreSQL (`OPEN_BENCH_SERVER=postgres npm run
 * bench -- open`, bench/open.bench.ts) keeps working: a tiny run, checked for what it prints (the
 * server and database named, the server's processes apart, the three figures), never for a figure.
 * Here, not beside the dev server's smoke run in test/bench.e2e-spec.ts, because only
 * `npm run test:topology` has the server binaries.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TEMPORAL_SERVER_VERSION } from '../../scripts/temporal-server';
import { npmScriptCommand, ROOT } from './processes';

const run = promisify(execFile);
const SERVER = `Temporal server ${TEMPORAL_SERVER_VERSION.replaceAll('.', '\\.')}`;

describe('open bench on the Temporal server on PostgreSQL (smoke run, tiny sizes)', () => {
  it('runs to the end, names server and database, and prints the Temporal server and PostgreSQL apart', async () => {
    const { stdout } = await run(process.execPath, [...npmScriptCommand('bench'), 'open'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
      // A safety net, not a budget (about 60 s on a quiet machine); a bench killed by it stops
      // its Temporal server and PostgreSQL (SIGTERM).
      timeout: 900_000,
      env: {
        ...process.env,
        OPEN_BENCH_SERVER: 'postgres',
        OPEN_BENCH_SIZES: '2,4',
        OPEN_BENCH_QUIET_S: '2',
        OPEN_BENCH_SETTLE_S: '1',
        OPEN_BENCH_READ_SAMPLE: '2',
        OPEN_BENCH_READ_EVERY_MS: '1000',
      },
    });
    expect(stdout).toContain('=== bench: open done in ');
    expect(stdout).toMatch(
      new RegExp(
        `open: {6}${SERVER} \\(127\\.0\\.0\\.1:\\d+, pid \\d+\\) on PostgreSQL \\d+\\.\\d+ \\(127\\.0\\.0\\.1:\\d+, postmaster pid \\d+\\); sizes 2, 4, concurrency 20`,
      ),
    );
    expect(stdout).toMatch(
      /open: {6}opened 2 bookings \(4 open\) in \d+\.\d s = .*CPU per booking opened: server \d+\.\d ms \(Temporal server \d+\.\d ms, PostgreSQL \d+\.\d ms\), worker/,
    );
    for (const open of [0, 2, 4])
      expect(stdout).toMatch(
        new RegExp(
          `open: {6}at ${open}: quiet \\d+\\.\\d s: CPU server \\d+ ms \\(Temporal server \\d+ ms, PostgreSQL \\d+ ms\\), worker \\d+ ms, airline \\d+ ms; meanwhile`,
        ),
      );
    for (const open of [2, 4]) {
      expect(stdout).toMatch(
        new RegExp(`open: {6}at ${open}: database \\d+\\.\\d MB, .* KB per open booking; by table: .*history_node `),
      );
      expect(stdout).toMatch(
        new RegExp(
          `open: {6}at ${open}: worker RSS \\d+ MB, .*; server PSS \\d+ MB \\(Temporal server \\d+ MB, PostgreSQL \\d+ MB\\)`,
        ),
      );
    }
    expect(stdout).toMatch(
      new RegExp(
        `open: {6}database per open booking = \\d+\\.\\d KB \\(target <= 50 KB; at 4, ${SERVER}, PostgreSQL \\d+\\.\\d+: temporal \\+ temporal_visibility\\)`,
      ),
    );
    expect(stdout).toMatch(
      /open: {6}worker memory at 4 \/ at 2 = \d+\.\d\d \(target <= 1\.2; maxCachedWorkflows 400\)/,
    );
    expect(stdout).toMatch(/open: {6}idle CPU per open booking per hour = -?\d+\.\d\d ms \(target < 1 ms;/);
    expect(stdout).toMatch(
      /open: {6}reads: 2 more bookings reading their order every 1000 ms: \d+ reads in .*CPU server \d+ ms \(Temporal server \d+ ms, PostgreSQL \d+ ms\)/,
    );
  });
});
