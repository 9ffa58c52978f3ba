/**
 * Jaeger v2 all-in-one, the trace store of the production topology test (test/topology): run
 * without arguments it keeps traces in memory, takes OTLP on 4317 (gRPC) and 4318 (HTTP) and
 * serves its query API and UI on 16686.
 *
 * Binary, in order of preference:
 * 1. `JAEGER_BIN` when set (must be an executable file; no fallback);
 * 2. the git-ignored `.tools/jaeger/<version>/jaeger`, built on first use. `go install ...@<version>`
 *    refuses the module (its go.mod has replace directives), so it is built in a scratch module:
 *    `go mod init x`, `go get -tool github.com/jaegertracing/jaeger/cmd/jaeger@<version>`,
 *    `go build` (about 3.5 minutes on 2 idle cores; the Go caches make a rebuild fast). `GO`
 *    chooses the go binary (default `go` on PATH).
 *
 * Run directly (`npm run jaeger`) it provisions the binary and prints `JAEGER_BIN=<path>`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from './temporal-cli';
import { isExecutableFile } from './child-exit';

/** Jaeger module version we build (Jaeger v2; its module keeps v1 tags). */
export const JAEGER_VERSION = 'v1.76.0';
const JAEGER_PACKAGE = 'github.com/jaegertracing/jaeger/cmd/jaeger';

/** Options of {@link resolveJaeger}. */
export interface ResolveJaegerOptions {
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Root holding `.tools/`. Default: the repository. */
  projectRoot?: string;
  /** Progress messages. Default: stderr. */
  log?: (message: string) => void;
}

/** Path of the cached binary under `projectRoot`. */
export function cachedJaegerPath(projectRoot = PROJECT_ROOT): string {
  return path.join(projectRoot, '.tools', 'jaeger', JAEGER_VERSION, 'jaeger');
}

/** Builds the binary to `target` in a scratch module (a staging file is renamed into place). */
function buildJaeger(target: string, env: NodeJS.ProcessEnv, log: (m: string) => void): void {
  const go = env.GO || 'go';
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(path.dirname(target), '.build-'));
  const goEnv = { ...env, GOTOOLCHAIN: env.GOTOOLCHAIN || 'auto', CGO_ENABLED: env.CGO_ENABLED ?? '0' };
  const run = (args: string[]) =>
    execFileSync(go, args, { cwd: scratch, env: goEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  const started = Date.now();
  log(`jaeger: building ${JAEGER_PACKAGE}@${JAEGER_VERSION} (a few minutes the first time)`);
  try {
    run(['mod', 'init', 'x']);
    run(['get', '-tool', `${JAEGER_PACKAGE}@${JAEGER_VERSION}`]);
    const staging = path.join(scratch, 'jaeger');
    run(['build', '-o', staging, JAEGER_PACKAGE]);
    fs.renameSync(staging, target);
  } catch (error) {
    throw new Error(
      `jaeger: building ${JAEGER_PACKAGE}@${JAEGER_VERSION} failed (${(error as Error).message}); ` +
        'install Go (apt golang-go; GOTOOLCHAIN=auto fetches the version the module needs) or set JAEGER_BIN',
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  log(`jaeger: built ${target} in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** The Jaeger binary: JAEGER_BIN, the cached build, or a new build. */
export function resolveJaeger(options: ResolveJaegerOptions = {}): string {
  const env = options.env ?? process.env;
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const given = env.JAEGER_BIN;
  if (given !== undefined && given !== '') {
    if (!isExecutableFile(given)) throw new Error(`JAEGER_BIN=${given} is not an executable file`);
    return given;
  }
  const cached = cachedJaegerPath(options.projectRoot);
  if (!isExecutableFile(cached)) buildJaeger(cached, env, log);
  return cached;
}

if (require.main === module) {
  try {
    process.stdout.write(`JAEGER_BIN=${resolveJaeger()}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
