/**
 * The benchmarks keep working: `bench/run.ts codec airline saga` with tiny sizes, checked for
 * what each prints (the ratio lines), never for a figure (speed is judged by running them in
 * full, see bench/README.md).
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { temporalTestCli } from './support/temporal-env';

const run = promisify(execFile);

describe('benchmarks (smoke run, tiny sizes)', () => {
  it('codec, airline and saga run to the end and print their ratios', async () => {
    const root = path.join(__dirname, '..');
    const { stdout } = await run(process.execPath, ['-r', '@swc-node/register', 'bench/run.ts', 'codec', 'airline', 'saga'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 150_000,
      env: {
        ...process.env,
        TEMPORAL_CLI: temporalTestCli(),
        CODEC_BENCH_OFFERS: '4',
        CODEC_BENCH_ITERATIONS: '3',
        BENCH_AIRLINE_SECONDS: '0.6',
        BENCH_AIRLINE_ROUNDS: '2',
        BENCH_AIRLINE_WARMUP_SECONDS: '0.3',
        SAGA_BENCH_N: '2',
        SAGA_BENCH_CONCURRENCY: '1',
      },
    });
    for (const name of ['codec', 'airline', 'saga']) expect(stdout).toContain(`=== bench: ${name} done in `);
    expect(stdout).toMatch(/decode ratio \d+\.\d\dx/);
    expect(stdout).toMatch(/encode ratio \d+\.\d\dx/);
    expect(stdout).toMatch(/uncached search \/ encode alone = \d+\.\d\dx \(target <= 1\.30x\); per round \d+\.\d\dx, \d+\.\d\dx/);
    expect(stdout).toMatch(/overhead: {2}p50 latency ratio temporal\/direct = \d+\.\d\dx/);
  }, 180_000);
});
