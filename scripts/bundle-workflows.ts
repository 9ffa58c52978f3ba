/**
 * Prebuilds the workflow bundle (every workflow of `workflows/`, with the worker's workflow
 * interceptor modules) with the SDK's
 * `bundleWorkflowCode`, so that a worker started with `WORKFLOW_BUNDLE_PATH=<file>` loads it
 * instead of running webpack at every start. `--tracing` adds the OpenTelemetry workflow span
 * interceptor, for workers that export traces. The Dockerfile runs it at image build time:
 *
 *   node -r @swc-node/register scripts/bundle-workflows.ts dist/workflow-bundle.js
 *   node -r @swc-node/register scripts/bundle-workflows.ts dist/workflow-bundle.tracing.js --tracing
 */
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowInterceptorModules } from '../src/worker/worker';

/**
 * Writes the bundle of `workflows/` to `outFile` and returns its size in bytes; `tracing`: with
 * the workflow span interceptor.
 */
export async function writeWorkflowBundle(outFile: string, options: { tracing?: boolean } = {}): Promise<number> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    workflowInterceptorModules: workflowInterceptorModules(options.tracing ?? false),
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
  fs.writeFileSync(outFile, code);
  return Buffer.byteLength(code);
}

/** `<output file> [--tracing]`, or undefined for anything else. */
function commandLine(argv: string[]): { outFile: string; tracing: boolean } | undefined {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { tracing: { type: 'boolean' } },
    });
    return positionals.length === 1 ? { outFile: positionals[0]!, tracing: values.tracing === true } : undefined;
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  const args = commandLine(process.argv.slice(2));
  if (args === undefined) {
    process.stderr.write('usage: bundle-workflows.ts <output file> [--tracing]\n');
    process.exit(2);
  }
  const { outFile, tracing } = args;
  writeWorkflowBundle(outFile, { tracing }).then(
    (bytes) => process.stdout.write(`workflow bundle: ${outFile} (${bytes} bytes)\n`),
    (error: unknown) => {
      process.stderr.write(`bundle-workflows: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
