/** Small process helpers shared by the launchers in `scripts/` (start, dev server, Temporal server, PostgreSQL). */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** How a spawned child ended, once it has. */
export interface ChildExit {
  /** Resolves when the child exited or could not be spawned. */
  exited: Promise<void>;
  /** `exit code N`, `signal SIG...` or the spawn error's message; undefined while it runs. */
  reason(): string | undefined;
}

/** Watches `child` for its end (call right after spawning it, before anything awaits). */
export function watchExit(child: ChildProcess): ChildExit {
  let reason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      reason = signal !== null ? `signal ${signal}` : `exit code ${String(code)}`;
      resolve();
    });
    child.once('error', (error) => {
      reason = error.message;
      resolve();
    });
  });
  return { exited, reason: () => reason };
}

/**
 * stdio of a role spawned by the launcher: no stdin, stdout and stderr piped to the launcher, and
 * an IPC channel. The role watches that channel (src/common/end-with-parent.ts) and ends when it
 * closes, i.e. when the launcher has ended however it ended (SIGKILL, a crash, Ctrl-C of
 * `npm start | tee log`), so no role is left holding its port with parent 1.
 */
export const ROLE_STDIO: ['ignore', 'pipe', 'pipe', 'ipc'] = ['ignore', 'pipe', 'pipe', 'ipc'];

/**
 * Keeps a write to a closed output (EPIPE: the reader of `npm start | tee log` ended first on
 * Ctrl-C) from crashing the launcher before it has stopped its roles; such writes are dropped.
 */
export function ignoreBrokenPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** True when `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
