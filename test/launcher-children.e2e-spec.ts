/**
 * `npm start` roles end with their launcher however it ends (issue 18): they are spawned with an
 * IPC channel (scripts/child-exit.ts ROLE_STDIO) and end when it closes
 * (src/common/end-with-parent.ts). Real processes; no ports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';

const ROOT = path.resolve(__dirname, '..');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts the launcher fixture; resolves with it and its role's pid once the role has said it. */
function launch(): Promise<{ launcher: ChildProcess; rolePid: number }> {
  const launcher = spawn(process.execPath, ['-r', '@swc-node/register', 'test/support/launcher-fixture.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: launcher.stdout! });
    lines.on('line', (line) => {
      const m = /role pid (\d+)/.exec(line);
      if (m) resolve({ launcher, rolePid: Number(m[1]) });
    });
    launcher.once('exit', (code) => reject(new Error(`launcher exited (${String(code)}) before its role started`)));
  });
}

describe('npm start roles end with their launcher', () => {
  const started: number[] = [];

  afterAll(() => {
    for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('regression: the launcher killed outright (SIGKILL): its role ends too, not left with parent 1', async () => {
    const { launcher, rolePid } = await launch();
    started.push(rolePid);
    expect(alive(rolePid)).toBe(true);
    launcher.kill('SIGKILL');
    await until(() => !alive(rolePid), `role ${rolePid} ending`);
  });

  it('regression: `npm start | tee` and Ctrl-C: the pipe reader gone, SIGINT, the role still ends', async () => {
    const { launcher, rolePid } = await launch();
    started.push(rolePid);
    // tee ends first on Ctrl-C: the launcher's stdout has no reader any more.
    launcher.stdout!.destroy();
    launcher.kill('SIGINT');
    await until(() => !alive(rolePid), `role ${rolePid} ending`);
  });
});
