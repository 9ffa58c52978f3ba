/**
 * `npm run keys -- <command>`: manages the API keys file (API_KEYS_FILE, default
 * `.data/api-keys.json`) that every API instance reads (re-read on change and on SIGHUP).
 *
 *   create --agency ID [--role agency|ops] [--label TEXT]   prints the new key once
 *   list                                                     prefixes, agencies, roles: never a secret
 *   revoke <nsk_id | id>                                     the key is refused from then on
 *
 * Also the development keys of `npm start` (`.data/dev-api-keys.json`): an agency key and an ops
 * key created on first run, read by `npm run book` when NDC_SAGA_API_KEY is not set.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateApiKey, readKeysFile, writeKeysFile, type KeysFile } from '../src/api/auth/api-keys';
import { ApiKeyStore } from '../src/api/auth/api-keys';
import type { Role } from '../src/api/auth/principal';
import { PROJECT_ROOT } from './temporal-cli';

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
export function ensureDevKeys(keysFile: string = DEV_API_KEYS_FILE, secretFile: string = DEV_KEYS_SECRET_FILE): DevKeys {
  const saved = readDevKeys(secretFile);
  if (saved !== undefined) {
    const store = new ApiKeyStore(keysFile);
    if (store.check(saved.agencyKey).ok && store.check(saved.opsKey).ok) return { ...saved, created: false };
  }
  const agency = generateApiKey({ agencyId: DEV_AGENCY_ID, role: 'agency', label: 'npm start: development agency key' });
  const ops = generateApiKey({ agencyId: DEV_OPS_AGENCY_ID, role: 'ops', label: 'npm start: development ops key' });
  const content = readKeysFile(keysFile);
  content.keys.push(agency.record, ops.record);
  writeKeysFile(keysFile, content);
  fs.mkdirSync(path.dirname(secretFile), { recursive: true });
  fs.writeFileSync(secretFile, `${JSON.stringify({ agencyKey: agency.key, opsKey: ops.key }, null, 2)}\n`, { mode: 0o600 });
  return { agencyKey: agency.key, opsKey: ops.key, created: true };
}

/** The saved development keys, if any. */
export function readDevKeys(secretFile: string = DEV_KEYS_SECRET_FILE): { agencyKey: string; opsKey: string } | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(secretFile, 'utf8')) as { agencyKey?: unknown; opsKey?: unknown };
    return typeof v.agencyKey === 'string' && typeof v.opsKey === 'string' ? { agencyKey: v.agencyKey, opsKey: v.opsKey } : undefined;
  } catch {
    return undefined;
  }
}

class Usage extends Error {}

const USAGE = [
  'usage: npm run keys -- create --agency ID [--role agency|ops] [--label TEXT]',
  '       npm run keys -- list',
  '       npm run keys -- revoke <nsk_id | id>',
  '(keys file: API_KEYS_FILE, default .data/api-keys.json)',
].join('\n');

function options(args: string[], allowed: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const name = args[i]!;
    if (!name.startsWith('--') || !allowed.includes(name.slice(2))) throw new Usage(`unknown option ${name}`);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Usage(`${name} needs a value`);
    out[name.slice(2)] = value;
    i += 1;
  }
  return out;
}

function table(content: KeysFile): string[] {
  const rows = content.keys.map((k) => [
    `nsk_${k.id}`,
    k.agencyId,
    k.role,
    k.revokedAt !== undefined ? `revoked ${k.revokedAt}` : 'active',
    k.createdAt,
    k.label ?? '',
  ]);
  const header = ['PREFIX', 'AGENCY', 'ROLE', 'STATE', 'CREATED', 'LABEL'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

/** Runs one command against `file`; writes to `out`; returns the exit code. */
export function runKeysCommand(argv: string[], file: string, out: (line: string) => void): number {
  try {
    const [command, ...args] = argv;
    if (command === 'create') {
      const o = options(args, ['agency', 'role', 'label']);
      if (o.agency === undefined) throw new Usage('create needs --agency ID');
      const role = (o.role ?? 'agency') as Role;
      if (role !== 'agency' && role !== 'ops') throw new Usage('--role must be agency or ops');
      const { key, record } = generateApiKey({ agencyId: o.agency, role, ...(o.label !== undefined ? { label: o.label } : {}) });
      const content = readKeysFile(file);
      content.keys.push(record);
      writeKeysFile(file, content);
      out(`created ${role} key nsk_${record.id} for agency ${record.agencyId} in ${file}`);
      out('the key (shown once, it cannot be recovered: store it now):');
      out(key);
      return 0;
    }
    if (command === 'list') {
      options(args, []);
      const content = readKeysFile(file);
      if (content.keys.length === 0) out(`no keys in ${file}`);
      else table(content).forEach((line) => out(line));
      return 0;
    }
    if (command === 'revoke') {
      const [target, ...rest] = args;
      if (target === undefined || rest.length > 0) throw new Usage('revoke needs one key prefix (nsk_<id>)');
      const id = target.replace(/^nsk_/, '').slice(0, 10);
      const content = readKeysFile(file);
      const record = content.keys.find((k) => k.id === id);
      if (record === undefined) {
        out(`no key ${target} in ${file}`);
        return 1;
      }
      if (record.revokedAt === undefined) {
        record.revokedAt = new Date().toISOString();
        writeKeysFile(file, content);
      }
      out(`revoked nsk_${record.id} (agency ${record.agencyId}, ${record.role}) at ${record.revokedAt}; running APIs re-read the file within a second`);
      return 0;
    }
    throw new Usage(command === undefined ? '' : `unknown command ${command}`);
  } catch (err) {
    if (err instanceof Usage) {
      if (err.message !== '') out(`keys: ${err.message}`);
      out(USAGE);
      return 2;
    }
    out(`keys: ${(err as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  const file = process.env.API_KEYS_FILE || DEV_API_KEYS_FILE;
  process.exit(runKeysCommand(process.argv.slice(2), file, (line) => process.stdout.write(`${line}\n`)));
}
