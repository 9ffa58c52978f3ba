/**
 * Child processes of the topology test: our roles started exactly as `npm run <role>` starts
 * them (the command is read from package.json), their output kept in memory and in a log file.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROLE_STDIO } from '../../scripts/child-exit';

export const ROOT = path.resolve(__dirname, '..', '..');

/** `node -r @swc-node/register <entry>` of `npm run <script>`, as [execPath, args]. */
export function npmScriptCommand(script: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const command = pkg.scripts[script];
  if (command === undefined) throw new Error(`package.json has no script "${script}"`);
  const words = command.split(/\s+/);
  if (words[0] !== 'node') throw new Error(`npm run ${script} is not a node command: ${command}`);
  // The same Node binary as the test (CI runs the suite on several versions).
  return words.slice(1);
}

/** A role running as a child process. */
export interface RoleProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether it has ended. */
  isRunning(): boolean;
  /** SIGTERM, SIGKILL after `graceMs` (default 20000); resolves once it ended. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `npm run <script>`'s node command with `env` added to ours; output also goes to `logDir/<name>.log`. */
export function startRole(name: string, script: string, env: NodeJS.ProcessEnv, logDir: string): RoleProcess {
  fs.mkdirSync(logDir, { recursive: true });
  const log = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, npmScriptCommand(script), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // With npm start's IPC channel: the role ends when the test process does, however it ends.
    stdio: ROLE_STDIO,
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  let output = '';
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      log.end();
      resolve({ code, signal });
    });
  });
  return {
    name,
    child,
    pid: child.pid,
    output: () => output,
    exited,
    isRunning: () => running,
    async stop(graceMs = 20_000) {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Calls `probe` until `done(value)` holds, every `intervalMs` (default 200), and fails when
 * `failed()` names a reason (a process died) or after `maxAttempts` (default 3000, i.e. a
 * safety net far above any expected wait: the readiness signal decides, not a clock).
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: { intervalMs?: number; maxAttempts?: number; failed?: () => string | undefined } = {},
): Promise<T> {
  const attempts = options.maxAttempts ?? 3000;
  let last: unknown;
  for (let i = 0; i < attempts; i += 1) {
    const reason = options.failed?.();
    if (reason !== undefined) throw new Error(`${what}: ${reason}`);
    try {
      const value = await probe();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
  throw new Error(`${what}: not reached after ${attempts} attempts (last: ${JSON.stringify(last)})`);
}

/** Resolves once `GET url` answers 200. */
export async function waitForHttpOk(what: string, url: string, role?: RoleProcess): Promise<void> {
  await pollUntil(
    what,
    async () => (await fetch(url, { signal: AbortSignal.timeout(5000) })).status,
    (status) => status === 200,
    {
      failed: () =>
        role !== undefined && !role.isRunning() ? `${role.name} exited:\n${role.output().slice(-3000)}` : undefined,
    },
  );
}

/** Creates an API key for `agency` in `keysFile` as an operator does (`npm run keys -- create`); returns it. */
export function createApiKey(keysFile: string, agency: string, label: string): string {
  const created = execFileSync(
    process.execPath,
    [...npmScriptCommand('keys'), 'create', '--agency', agency, '--label', label],
    {
      cwd: ROOT,
      env: { ...process.env, API_KEYS_FILE: keysFile },
    },
  ).toString();
  const key = /^(nsk_\S+)$/m.exec(created)?.[1];
  if (key === undefined) throw new Error(`npm run keys printed no key:\n${created}`);
  return key;
}
