/**
 * Benchmark dispatcher: `npm run bench -- [codec|airline|saga|open ...]` (no argument: all of them).
 * Each benchmark is `bench/<name>.bench.ts` exporting `async function run(): Promise<void>`;
 * they run one after the other, in the order given.
 */
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Known benchmarks, in the order `npm run bench` runs them. */
export const BENCHMARKS = ['codec', 'airline', 'saga', 'open'] as const;

interface BenchModule {
  run?: unknown;
}

function benchFile(name: string): string {
  return path.join(__dirname, `${name}.bench.ts`);
}

async function runOne(name: string): Promise<boolean> {
  const file = benchFile(name);
  if (!fs.existsSync(file)) {
    process.stderr.write(
      `bench: ${path.relative(process.cwd(), file)} does not exist, "${name}" is not implemented yet\n`,
    );
    return false;
  }
  const loaded = (await import(file)) as BenchModule;
  if (typeof loaded.run !== 'function') {
    process.stderr.write(
      `bench: ${path.relative(process.cwd(), file)} must export "async function run(): Promise<void>"\n`,
    );
    return false;
  }
  process.stdout.write(`\n=== bench: ${name} ===\n`);
  const started = process.hrtime.bigint();
  await (loaded.run as () => Promise<void>)();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`=== bench: ${name} done in ${seconds.toFixed(1)} s ===\n`);
  return true;
}

async function main(argv: string[]): Promise<number> {
  let names: string[];
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: {} });
    names = positionals.length === 0 ? [...BENCHMARKS] : positionals;
  } catch (error) {
    process.stderr.write(
      `bench: ${(error as Error).message.split('\n')[0]}; usage: npm run bench -- [${BENCHMARKS.join('|')} ...]\n`,
    );
    return 2;
  }
  const unknown = names.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}\n`);
    return 2;
  }
  let failed = 0;
  for (const name of names) {
    if (!(await runOne(name))) failed += 1;
  }
  return failed === 0 ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      // Benchmarks may leave keep-alive sockets or servers behind: exit explicitly.
      process.exit(code);
    },
    (error: unknown) => {
      process.stderr.write(
        `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
