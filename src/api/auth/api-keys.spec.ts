import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiKeyStore, generateApiKey, keyPrefix, readKeysFile, writeKeysFile } from './api-keys';

describe('API keys', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-spec-'));
    file = path.join(dir, 'keys.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are random, prefixed, and stored only as a hash', () => {
    const a = generateApiKey({
      agencyId: 'AG1',
      role: 'agency',
      label: 'backend',
      now: new Date('2026-11-21T00:00:00Z'),
    });
    const b = generateApiKey({ agencyId: 'AG1', role: 'agency' });
    expect(a.key).toMatch(/^nsk_[a-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.record).toEqual({
      id: a.key.slice(4, 14),
      hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      agencyId: 'AG1',
      role: 'agency',
      label: 'backend',
      createdAt: '2026-11-21T00:00:00.000Z',
    });
    writeKeysFile(file, { version: 1, keys: [a.record] });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(a.key.slice(15));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(keyPrefix(a.key)).toBe(`nsk_${a.record.id}`);
    expect(keyPrefix('Bearer-ish garbage')).toBe('malformed');
    expect(() => generateApiKey({ agencyId: "x'y", role: 'agency' })).toThrow(/agency id/);
  });

  it('the store accepts current keys, refuses unknown, forged and revoked ones', () => {
    const a = generateApiKey({ agencyId: 'AG1', role: 'agency' });
    const o = generateApiKey({ agencyId: 'OPS', role: 'ops' });
    writeKeysFile(file, { version: 1, keys: [a.record, o.record] });
    const store = new ApiKeyStore(file);
    expect(store.check(a.key)).toEqual({
      ok: true,
      principal: { agencyId: 'AG1', role: 'agency', method: 'api-key', id: `nsk_${a.record.id}` },
    });
    expect(store.check(o.key)).toMatchObject({ ok: true, principal: { role: 'ops' } });
    expect(store.check(`${a.key.slice(0, -1)}${a.key.endsWith('A') ? 'B' : 'A'}`)).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(store.check(generateApiKey({ agencyId: 'AG1', role: 'agency' }).key)).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(store.check('nsk_short')).toEqual({ ok: false, reason: 'malformed' });
    const content = readKeysFile(file);
    content.keys[0]!.revokedAt = new Date().toISOString();
    writeKeysFile(file, content);
    store.reload();
    expect(store.check(a.key)).toEqual({ ok: false, reason: 'revoked' });
    expect(store.activeCount).toBe(1);
  });

  it('a missing file is no keys; a malformed one on reload keeps the previous keys and is reported', () => {
    const errors: string[] = [];
    const store = new ApiKeyStore(file, (m) => errors.push(m));
    expect(store.activeCount).toBe(0);
    const a = generateApiKey({ agencyId: 'AG1', role: 'agency' });
    writeKeysFile(file, { version: 1, keys: [a.record] });
    store.reload();
    expect(store.check(a.key).ok).toBe(true);
    fs.writeFileSync(file, '{"version":1,"keys":[{"id":"x"}]}');
    store.reload();
    expect(store.check(a.key).ok).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('not a valid keys file');
    expect(() => new ApiKeyStore(file)).toThrow(/not a valid keys file/);
  });

  it('watch() picks up a file created right after start, then each change; a bad file is reported once', async () => {
    const errors: string[] = [];
    const store = new ApiKeyStore(file, (m) => errors.push(m));
    store.watch(20);
    const until = async (what: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return what();
    };
    try {
      const a = generateApiKey({ agencyId: 'AG1', role: 'agency' });
      writeKeysFile(file, { version: 1, keys: [a.record] });
      expect(await until(() => store.check(a.key).ok)).toBe(true);
      writeKeysFile(file, { version: 1, keys: [{ ...a.record, revokedAt: new Date().toISOString() }] });
      expect(await until(() => !store.check(a.key).ok)).toBe(true);
      fs.writeFileSync(file, 'not json');
      expect(await until(() => errors.length > 0)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(errors).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});
