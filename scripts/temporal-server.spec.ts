import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveTemporalServerTools, TEMPORAL_SERVER_VERSION } from './temporal-server';

describe('resolveTemporalServerTools', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-server-tools-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** A fake `go` that records its arguments and environment and "builds" the named command into GOBIN. */
  function fakeGo(): { go: string; calls: () => string[] } {
    const go = path.join(root, 'fake-go');
    const log = path.join(root, 'go-calls.log');
    fs.writeFileSync(
      go,
      `#!/bin/sh\necho "$* GOTOOLCHAIN=$GOTOOLCHAIN" >> "${log}"\n` +
        'name=$(basename "${2%@*}")\nprintf "#!/bin/sh\\necho %s\\n" "$name" > "$GOBIN/$name"\nchmod +x "$GOBIN/$name"\n',
      { mode: 0o755 },
    );
    return { go, calls: () => fs.readFileSync(log, 'utf8').trim().split('\n') };
  }

  it('builds both binaries with go install into a fresh .tools/ once, then reuses them', () => {
    const { go, calls } = fakeGo();
    const project = path.join(root, 'project');
    const tools = resolveTemporalServerTools({
      env: { PATH: process.env.PATH, GO: go },
      projectRoot: project,
      log: () => undefined,
    });
    const binDir = path.join(project, '.tools', 'temporal-server', TEMPORAL_SERVER_VERSION, 'bin');
    expect(tools).toEqual({ server: path.join(binDir, 'server'), sqlTool: path.join(binDir, 'sql') });
    expect(calls()).toEqual([
      `install go.temporal.io/server/cmd/server@v${TEMPORAL_SERVER_VERSION} GOTOOLCHAIN=auto`,
      `install go.temporal.io/server/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION} GOTOOLCHAIN=auto`,
    ]);
    // Cached: no second build, and no staging folder left behind.
    resolveTemporalServerTools({ env: { PATH: process.env.PATH, GO: go }, projectRoot: project, log: () => undefined });
    expect(calls()).toHaveLength(2);
    expect(fs.readdirSync(path.dirname(binDir))).toEqual(['bin']);
  });

  it('uses TEMPORAL_SERVER_BIN / TEMPORAL_SQL_TOOL as given and refuses a path that is not executable', () => {
    const server = path.join(root, 'my-server');
    const sql = path.join(root, 'my-sql');
    fs.writeFileSync(server, '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(sql, 'not executable', { mode: 0o644 });
    expect(() =>
      resolveTemporalServerTools({
        env: { TEMPORAL_SERVER_BIN: server, TEMPORAL_SQL_TOOL: sql, GO: '/nonexistent' },
        projectRoot: root,
      }),
    ).toThrow(`TEMPORAL_SQL_TOOL: "${sql}" is not an executable file`);
    fs.chmodSync(sql, 0o755);
    expect(
      resolveTemporalServerTools({ env: { TEMPORAL_SERVER_BIN: server, TEMPORAL_SQL_TOOL: sql }, projectRoot: root }),
    ).toEqual({
      server,
      sqlTool: sql,
    });
  });

  it('says how to get Go when there is none', () => {
    expect(() =>
      resolveTemporalServerTools({
        env: { PATH: process.env.PATH, GO: path.join(root, 'no-go') },
        projectRoot: root,
        log: () => undefined,
      }),
    ).toThrow(`"${path.join(root, 'no-go')}" not found: install Go or set GO`);
  });
});
