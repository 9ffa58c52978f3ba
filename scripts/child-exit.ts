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
