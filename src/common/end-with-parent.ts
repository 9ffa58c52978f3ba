/**
 * A role started by `npm start` (scripts/start.ts) ends with its launcher, however the launcher
 * ends (Ctrl-C while its output goes through `| tee`, SIGKILL, a crash): the launcher spawns it
 * with an IPC channel, and when that channel closes the role sends itself SIGTERM, so its usual
 * graceful shutdown runs and its ports are freed.
 */

/**
 * Watches the IPC channel to the parent, if this process has one (no-op otherwise, e.g. when
 * run on its own or under Docker). The channel is unreferenced: it never keeps the process alive.
 */
export function endWithParent(proc: NodeJS.Process = process): void {
  if (typeof proc.send !== 'function' || proc.channel === undefined) return;
  proc.channel.unref();
  proc.once('disconnect', () => proc.kill(proc.pid, 'SIGTERM'));
}
