/** API keys for tests: a keys file in a temporary folder with one key per role/agency asked for. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateApiKey, readKeysFile, writeKeysFile } from '../../src/api/auth/api-keys';
import type { Role } from '../../src/api/common/principal';

export interface TestKeys {
  /** The keys file. */
  file: string;
  /** Secret of each named key, e.g. `keys.secret('A')`. */
  secret(name: string): string;
  /** Every secret handed out (for the log leak scan). */
  all(): string[];
  /** Adds a key and returns its secret. */
  add(name: string, agencyId: string, role?: Role): string;
  /** Marks a key revoked in the file. */
  revoke(name: string): void;
  /** `{ authorization: 'Bearer <secret>' }` of a named key. */
  auth(name: string): { authorization: string };
  remove(): void;
}

export function createTestKeys(spec: Record<string, { agencyId: string; role?: Role }>): TestKeys {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndc-saga-keys-'));
  const file = path.join(dir, 'api-keys.json');
  const secrets = new Map<string, { key: string; id: string }>();
  const add = (name: string, agencyId: string, role: Role = 'agency') => {
    const { key, record } = generateApiKey({ agencyId, role, label: `test ${name}` });
    const content = readKeysFile(file);
    content.keys.push(record);
    writeKeysFile(file, content);
    secrets.set(name, { key, id: record.id });
    return key;
  };
  for (const [name, { agencyId, role }] of Object.entries(spec)) add(name, agencyId, role);
  const secret = (name: string) => {
    const s = secrets.get(name);
    if (s === undefined) throw new Error(`no test key ${name}`);
    return s.key;
  };
  return {
    file,
    secret,
    all: () => [...secrets.values()].map((s) => s.key),
    add,
    revoke: (name) => {
      const id = secrets.get(name)!.id;
      const content = readKeysFile(file);
      for (const k of content.keys) if (k.id === id) k.revokedAt = new Date().toISOString();
      writeKeysFile(file, content);
    },
    auth: (name) => ({ authorization: `Bearer ${secret(name)}` }),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
