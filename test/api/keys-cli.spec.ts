import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiKeyStore, readKeysFile } from '../../src/api/auth/api-keys';
import { apiKeyFromEnv } from '../../scripts/book';
import { ensureDevKeys, runKeysCommand } from '../../scripts/keys';

describe('npm run keys', () => {
  let dir: string;
  let file: string;
  let lines: string[];
  const run = (...argv: string[]) => runKeysCommand(argv, file, (l) => lines.push(l));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-cli-'));
    file = path.join(dir, 'api-keys.json');
    lines = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('create shows the key once; list never shows a secret; revoke makes the API refuse it', () => {
    expect(run('create', '--agency', 'AG1', '--label', 'backend')).toBe(0);
    const key = lines[2]!;
    expect(key).toMatch(/^nsk_[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
    const prefix = key.slice(0, 14);
    expect(lines[0]).toBe(`created agency key ${prefix} for agency AG1 in ${file}`);
    expect(run('create', '--agency', 'OPS', '--role', 'ops')).toBe(0);
    const store = new ApiKeyStore(file);
    expect(store.check(key)).toMatchObject({ ok: true, principal: { agencyId: 'AG1', role: 'agency' } });
    expect(fs.readFileSync(file, 'utf8')).not.toContain(key.slice(15));
    lines = [];
    expect(run('list')).toBe(0);
    expect(lines[0]).toMatch(/^PREFIX\s+AGENCY\s+ROLE\s+STATE\s+CREATED\s+LABEL$/);
    expect(lines[1]).toMatch(new RegExp(`^${prefix}\\s+AG1\\s+agency\\s+active\\s+\\S+\\s+backend$`));
    expect(lines[2]).toMatch(/^nsk_[a-z0-9]{10}\s+OPS\s+ops\s+active/);
    expect(lines.join('\n')).not.toContain(key.slice(15));
    lines = [];
    expect(run('revoke', prefix)).toBe(0);
    expect(lines[0]).toMatch(new RegExp(`^revoked ${prefix} \\(agency AG1, agency\\)`));
    store.reload();
    expect(store.check(key)).toEqual({ ok: false, reason: 'revoked' });
    expect(readKeysFile(file).keys[0]!.revokedAt).toBeDefined();
    expect(run('revoke', 'nsk_0000000000')).toBe(1);
  });

  it('refuses bad usage with exit code 2', () => {
    expect(run('create')).toBe(2);
    expect(lines[0]).toBe('keys: create needs --agency ID');
    expect(run('create', '--agency', 'A', '--role', 'root')).toBe(2);
    expect(run('create', '--agency')).toBe(2);
    expect(run('frobnicate')).toBe(2);
    expect(run('create', '--agency', "x'y")).toBe(1);
  });

  it("npm start's development keys: created once, reused while valid, recreated once revoked; npm run book reads them", () => {
    const secrets = path.join(dir, 'dev-api-keys.json');
    const first = ensureDevKeys(file, secrets);
    expect(first.created).toBe(true);
    expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
    const store = new ApiKeyStore(file);
    expect(store.check(first.agencyKey)).toMatchObject({
      ok: true,
      principal: { agencyId: 'AGENCY1', role: 'agency' },
    });
    expect(store.check(first.opsKey)).toMatchObject({ ok: true, principal: { role: 'ops' } });
    expect(ensureDevKeys(file, secrets)).toEqual({ ...first, created: false });
    expect(apiKeyFromEnv({}, secrets)).toBe(first.agencyKey);
    expect(apiKeyFromEnv({ NDC_SAGA_API_KEY: 'nsk_other' }, secrets)).toBe('nsk_other');
    expect(apiKeyFromEnv({}, path.join(dir, 'none.json'))).toBeUndefined();
    run('revoke', first.agencyKey.slice(0, 14));
    const second = ensureDevKeys(file, secrets);
    expect(second.created).toBe(true);
    expect(second.agencyKey).not.toBe(first.agencyKey);
  });
});
