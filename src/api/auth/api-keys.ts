/**
 * API keys: opaque random bearer credentials, `nsk_<id>_<secret>`. The `nsk_<id>` part is the
 * key's public prefix (safe to log and to list); the secret is 32 random bytes (base64url), shown
 * once at creation. The keys file stores only the SHA-256 of the whole key (a slow hash adds
 * nothing for 256 random bits), with the agency, role and label.
 *
 * The file is JSON (`{"version":1,"keys":[...]}`) shared by every API instance, written
 * atomically (temp file + rename) by `npm run keys`, and re-read by {@link ApiKeyStore} when it
 * changes (polled) or on `reload()` (SIGHUP).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod/v4';
import type { Principal, Role } from '../common/principal';

/** Every key starts with this. */
export const API_KEY_PREFIX = 'nsk_';
const KEY_RE = /^nsk_([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;
/** Agency ids: the alphabet booking ids allow. */
export const AGENCY_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export interface StoredApiKey {
  /** Public id; the key's loggable prefix is `nsk_<id>`. */
  id: string;
  /** `sha256:<hex>` of the whole key. */
  hash: string;
  agencyId: string;
  role: Role;
  label?: string;
  createdAt: string;
  /** Set once revoked; a revoked key is refused. */
  revokedAt?: string;
}

const storedKeySchema = z.object({
  id: z.string().regex(/^[a-z0-9]{10}$/),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  agencyId: z.string().regex(AGENCY_ID_PATTERN),
  role: z.enum(['agency', 'ops']),
  label: z.string().max(200).optional(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
});
const keysFileSchema = z.object({ version: z.literal(1), keys: z.array(storedKeySchema) });

export type KeysFile = z.infer<typeof keysFileSchema>;

function hashKey(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** The loggable prefix of a presented bearer value: `nsk_<id>` of a well-formed key, else a fixed word. */
export function keyPrefix(presented: string): string {
  const m = /^nsk_([a-z0-9]{10})_/.exec(presented);
  return m !== null ? `nsk_${m[1]}` : 'malformed';
}

/** A new key (shown once) and the record to store for it. */
export function generateApiKey(input: { agencyId: string; role: Role; label?: string; now?: Date }): {
  key: string;
  record: StoredApiKey;
} {
  if (!AGENCY_ID_PATTERN.test(input.agencyId))
    throw new Error('agency id must be 1 to 64 characters of A-Z a-z 0-9 _ . -');
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const id = Array.from(randomBytes(10), (b) => alphabet[b % alphabet.length]).join('');
  const key = `${API_KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
  const record: StoredApiKey = {
    id,
    hash: hashKey(key),
    agencyId: input.agencyId,
    role: input.role,
    ...(input.label !== undefined ? { label: input.label } : {}),
    createdAt: (input.now ?? new Date()).toISOString(),
  };
  return { key, record };
}

/** Reads a keys file; a missing file is an empty one. Throws on malformed content. */
export function readKeysFile(file: string): KeysFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: [] };
    throw err;
  }
  const r = keysFileSchema.safeParse(JSON.parse(text));
  if (!r.success)
    throw new Error(
      `${file}: not a valid keys file (${r.error.issues[0]!.message} at ${r.error.issues[0]!.path.join('.')})`,
    );
  return r.data;
}

/** Writes a keys file atomically (temp file + rename), readable by its owner only. */
export function writeKeysFile(file: string, content: KeysFile): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Result of checking a presented key. */
export type KeyCheck = { ok: true; principal: Principal } | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' };

/** The keys of one file, kept in memory and re-read when the file changes. */
export class ApiKeyStore {
  private byId = new Map<string, StoredApiKey>();
  /** What the file looked like when it was last read (inode, size, mtime), or `missing`. */
  private loadedSignature = '';
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param file the keys file (created by `npm run keys`); missing means no keys yet.
   * @param onReloadError told when a changed file cannot be read (the previous keys stay).
   */
  constructor(
    readonly file: string,
    private readonly onReloadError: (message: string) => void = () => undefined,
  ) {
    this.load();
  }

  /** Number of keys that are not revoked. */
  get activeCount(): number {
    return [...this.byId.values()].filter((k) => k.revokedAt === undefined).length;
  }

  /** Re-reads the file now (SIGHUP). A malformed file keeps the previous keys and is reported. */
  reload(): void {
    try {
      this.load();
    } catch (err) {
      // Reported once per change of the file, not at every poll.
      this.loadedSignature = signatureOf(this.file);
      this.onReloadError((err as Error).message);
    }
  }

  /**
   * Checks the file every `intervalMs` (default 1000) and re-reads it when it differs from what was
   * last read (inode, size or mtime: atomic renames included). Comparing with the state at the
   * last read, not at the first poll, means a change right after start is not missed.
   */
  watch(intervalMs = 1000): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      if (signatureOf(this.file) !== this.loadedSignature) this.reload();
    }, intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  check(presented: string): KeyCheck {
    const m = KEY_RE.exec(presented);
    if (m === null) return { ok: false, reason: 'malformed' };
    const record = this.byId.get(m[1]!);
    if (record === undefined) return { ok: false, reason: 'unknown' };
    const expected = Buffer.from(record.hash);
    const actual = Buffer.from(hashKey(presented));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
      return { ok: false, reason: 'unknown' };
    if (record.revokedAt !== undefined) return { ok: false, reason: 'revoked' };
    return {
      ok: true,
      principal: { agencyId: record.agencyId, role: record.role, method: 'api-key', id: `nsk_${record.id}` },
    };
  }

  private load(): void {
    const signature = signatureOf(this.file);
    const content = readKeysFile(this.file);
    this.byId = new Map(content.keys.map((k) => [k.id, k]));
    this.loadedSignature = signature;
  }
}

/** Identity of the file's current content for change detection: inode, size, mtime; `missing` when absent. */
function signatureOf(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
