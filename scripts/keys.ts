/**
 * `npm run keys -- <command>`: manages the API keys file (API_KEYS_FILE, default
 * `.data/api-keys.json`) that every API instance reads (re-read on change and on SIGHUP). The
 * commands are `src/api/auth/keys.command.ts` (also in the image:
 * `node dist/src/api/auth/keys.command.js list`).
 *
 * Also the development keys of `npm start` (`.data/dev-api-keys.json`): an agency key and an ops
 * key created on first run, read by `npm run book` when NDC_SAGA_API_KEY is not set.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiKeyStore, generateApiKey, readKeysFile, writeKeysFile } from '../src/api/auth/api-keys';
import { runKeysCommand } from '../src/api/auth/keys.command';
import { PROJECT_ROOT } from './temporal-cli';

export { runKeysCommand };

/** The keys file of the API processes `npm start` runs (and of `npm run keys` without API_KEYS_FILE). */
export const DEV_API_KEYS_FILE = path.join(PROJECT_ROOT, '.data', 'api-keys.json');
/** The development keys' secrets, kept (mode 600) in the git-ignored data folder. */
export const DEV_KEYS_SECRET_FILE = path.join(PROJECT_ROOT, '.data', 'dev-api-keys.json');
/** Agency of the development agency key (the examples leave `agency.id` out and get it). */
export const DEV_AGENCY_ID = 'AGENCY1';
/** Agency of the development ops key. */
export const DEV_OPS_AGENCY_ID = 'OPS';

export interface DevKeys {
  agencyKey: string;
  opsKey: string;
  /** True when they were created by this call. */
  created: boolean;
}

/**
 * The development keys: read from {@link DEV_KEYS_SECRET_FILE} when both are still valid in
 * `keysFile`, else created (added to `keysFile`) and saved there.
 */
export function ensureDevKeys(
  keysFile: string = DEV_API_KEYS_FILE,
  secretFile: string = DEV_KEYS_SECRET_FILE,
): DevKeys {
  const saved = readDevKeys(secretFile);
  if (saved !== undefined) {
    const store = new ApiKeyStore(keysFile);
    if (store.check(saved.agencyKey).ok && store.check(saved.opsKey).ok) return { ...saved, created: false };
  }
  const agency = generateApiKey({
    agencyId: DEV_AGENCY_ID,
    role: 'agency',
    label: 'npm start: development agency key',
  });
  const ops = generateApiKey({ agencyId: DEV_OPS_AGENCY_ID, role: 'ops', label: 'npm start: development ops key' });
  const content = readKeysFile(keysFile);
  content.keys.push(agency.record, ops.record);
  writeKeysFile(keysFile, content);
  fs.mkdirSync(path.dirname(secretFile), { recursive: true });
  fs.writeFileSync(secretFile, `${JSON.stringify({ agencyKey: agency.key, opsKey: ops.key }, null, 2)}\n`, {
    mode: 0o600,
  });
  return { agencyKey: agency.key, opsKey: ops.key, created: true };
}

/** The saved development keys, if any. */
export function readDevKeys(
  secretFile: string = DEV_KEYS_SECRET_FILE,
): { agencyKey: string; opsKey: string } | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(secretFile, 'utf8')) as { agencyKey?: unknown; opsKey?: unknown };
    return typeof v.agencyKey === 'string' && typeof v.opsKey === 'string'
      ? { agencyKey: v.agencyKey, opsKey: v.opsKey }
      : undefined;
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  const file = process.env.API_KEYS_FILE || DEV_API_KEYS_FILE;
  process.exit(runKeysCommand(process.argv.slice(2), file, (line) => process.stdout.write(`${line}\n`)));
}
