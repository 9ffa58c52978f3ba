/**
 * Everything a test process writes, kept for the secret scans of the e2e specs (API keys, card
 * numbers, CVVs must never appear in a log).
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';

/**
 * Installs the Temporal SDK's Runtime logger at `level` and taps stdout and stderr (what is
 * written still reaches them); returns the list every log entry and write is appended to. Call
 * it once per test file, at module level, before anything uses the Runtime.
 */
export function captureProcessOutput(level: ConstructorParameters<typeof DefaultLogger>[0]): string[] {
  const captured: string[] = [];
  Runtime.install({
    logger: new DefaultLogger(level, (entry) => captured.push(`${entry.message} ${JSON.stringify(entry.meta ?? {})}`)),
  });
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
  }
  return captured;
}
