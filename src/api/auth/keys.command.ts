/**
 * The API keys command line (`npm run keys -- ...`, or `node dist/src/api/auth/keys.command.js ...`
 * in the image, with API_KEYS_FILE pointing at the mounted keys file):
 *
 *   create --agency ID [--role agency|ops] [--label TEXT]   prints the new key once
 *   list                                                     prefixes, agencies, roles: never a secret
 *   revoke <nsk_id | id>                                     the key is refused from then on
 */
import { parseArgs } from 'node:util';
import { generateApiKey, readKeysFile, writeKeysFile, type KeysFile } from './api-keys';
import type { Role } from '../common/principal';

class Usage extends Error {}

const USAGE = [
  'usage: npm run keys -- create --agency ID [--role agency|ops] [--label TEXT]',
  '       npm run keys -- list',
  '       npm run keys -- revoke <nsk_id | id>',
  '(keys file: API_KEYS_FILE, default .data/api-keys.json)',
].join('\n');

/** `args` parsed by `node:util` `parseArgs` with the string options `allowed`; any other is a usage error. */
function options(
  args: string[],
  allowed: string[],
  positionals = 0,
): { values: Record<string, string>; rest: string[] } {
  try {
    const parsed = parseArgs({
      args,
      options: Object.fromEntries(allowed.map((name) => [name, { type: 'string' as const }])),
      allowPositionals: positionals > 0,
      strict: true,
    });
    if (parsed.positionals.length > positionals) throw new Usage(`unexpected ${parsed.positionals[positionals]}`);
    return { values: parsed.values as Record<string, string>, rest: parsed.positionals };
  } catch (error) {
    if (error instanceof Usage) throw error;
    throw new Usage((error as Error).message.split('\n')[0]!.replace(/^Unknown option '(.*)'.*$/, 'unknown option $1'));
  }
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
  return [header, ...rows].map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

/** Runs one command against `file`; writes to `out`; returns the exit code (2: bad usage). */
export function runKeysCommand(argv: string[], file: string, out: (line: string) => void): number {
  try {
    const [command, ...args] = argv;
    if (command === 'create') return create(args, file, out);
    if (command === 'list') return list(args, file, out);
    if (command === 'revoke') return revoke(args, file, out);
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

function create(args: string[], file: string, out: (line: string) => void): number {
  const o = options(args, ['agency', 'role', 'label']).values;
  if (o.agency === undefined) throw new Usage('create needs --agency ID');
  const role = (o.role ?? 'agency') as Role;
  if (role !== 'agency' && role !== 'ops') throw new Usage('--role must be agency or ops');
  const { key, record } = generateApiKey({
    agencyId: o.agency,
    role,
    ...(o.label !== undefined ? { label: o.label } : {}),
  });
  const content = readKeysFile(file);
  content.keys.push(record);
  writeKeysFile(file, content);
  out(`created ${role} key nsk_${record.id} for agency ${record.agencyId} in ${file}`);
  out('the key (shown once, it cannot be recovered: store it now):');
  out(key);
  return 0;
}

function list(args: string[], file: string, out: (line: string) => void): number {
  options(args, []);
  const content = readKeysFile(file);
  if (content.keys.length === 0) out(`no keys in ${file}`);
  else table(content).forEach((line) => out(line));
  return 0;
}

function revoke(args: string[], file: string, out: (line: string) => void): number {
  const { rest } = options(args, [], 1);
  const target = rest[0];
  if (target === undefined) throw new Usage('revoke needs one key prefix (nsk_<id>)');
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
  out(
    `revoked nsk_${record.id} (agency ${record.agencyId}, ${record.role}) at ${record.revokedAt}; running APIs re-read the file within a second`,
  );
  return 0;
}

if (require.main === module) {
  const file = process.env.API_KEYS_FILE || '.data/api-keys.json';
  process.exit(runKeysCommand(process.argv.slice(2), file, (line) => process.stdout.write(`${line}\n`)));
}
