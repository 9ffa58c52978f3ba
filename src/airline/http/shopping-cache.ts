/**
 * Response cache of AirShopping. A search is a pure function of the request,
 * the world, the seat inventory and the day; repeating an identical request
 * (only TimeStamp, TransactionIdentifier and CorrelationID may differ) while
 * no seat was sold answers the remembered XML without decoding, searching or
 * encoding again. Each answer still gets its own ShoppingResponseID: the
 * remembered response id is replaced in the XML by an alias id derived from
 * it and the time of the answer (store/shopping-alias.ts), which the store
 * resolves to the remembered record under the new id, with new creation and
 * expiry times; so later steps see exactly what a fresh search would have
 * produced, and no row is written per answer.
 *
 * Entries live {@link SHOPPING_CACHE_TTL_MS} (30 s), never across a seat sale
 * (inventory generation) or midnight UTC; at most {@link SHOPPING_CACHE_MAX} are kept.
 */
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { requireElement, unescapeXml } from '../../ndc';
import type { AirShoppingRs, MessageHeader } from '../../ndc/ndc.model';
import type { AirlineClock } from '../airline.ports';
import type { AirlineStore } from '../store/airline.store';
import { ShoppingAliasIds } from '../store/shopping-alias';

export const SHOPPING_CACHE_TTL_MS = 30_000;
export const SHOPPING_CACHE_MAX = 256;
const DAY_MS = 86_400_000;
/** Requests up to this length are their own cache key (see {@link ShoppingCache.key}). */
export const SHOPPING_KEY_MAX_CHARS = 8192;

/** Placeholders written into remembered XML for the per-response root attributes. */
const SENTINEL = {
  timeStamp: '@@NDCSAGA_TIMESTAMP@@',
  transactionIdentifier: '@@NDCSAGA_TRANSACTION@@',
  correlationId: '@@NDCSAGA_CORRELATION@@',
} as const;

const ROOT_START = /<(?:[A-Za-z_][\w.-]*:)?AirShoppingRQ\b[^>]*>/;

/** Room in front of a pooled answer for its patched head (the head template's length plus this). */
const HEAD_ROOM_EXTRA = 1024;
/** Pooled answer buffers kept per remembered search. */
const POOL_MAX = 64;

/**
 * Pooled copies of a remembered answer: `template` is the answer after its
 * head, with the response id at `idOffsets` (`idLength` bytes each), behind
 * `headRoom` bytes where the head is written right-aligned. A buffer is taken
 * from the pool, patched in place (head and ids: a few hundred bytes instead of
 * copying 22 KB) and returned to the pool when the socket has taken the bytes.
 * Reused buffers are also cheaper for the kernel to copy than fresh ones.
 */
interface Layout {
  idLength: number;
  headRoom: number;
  template: Buffer;
  idOffsets: number[];
  pool: Buffer[];
}

/** A cached answer: its bytes, and a function to call once they are written (or dropped). */
export interface CachedAnswer {
  body: Buffer;
  release?: () => void;
}

interface Entry {
  /** The request key (see {@link ShoppingCache.key}). */
  key: string;
  /** Start of the encoded response up to the first response id, with {@link SENTINEL} root attributes. */
  head: string;
  /** UTF-8 bytes of the rest of the response, split at each occurrence of the response id. */
  tail: Buffer[];
  /** ShoppingResponseID inside the XML and of the stored record (absent for calendar searches). */
  responseId?: string;
  /**
   * True when {@link responseId} is letters, digits, `_` and `-` only: so are its alias ids
   * (it + `K` + hex digits), whose latin1 bytes are then their UTF-8 bytes.
   */
  asciiId?: boolean;
  cachedAt: number;
  /** UTC day number (ms / 86 400 000) of the search. */
  day: number;
  generation: number;
  /** {@link head} cut at its placeholders (undefined: patched with {@link patchHeader}). */
  headTemplate?: HeadTemplate;
  /** Built at the first hit. */
  layout?: Layout;
}

/** A copy of `b` in memory of its own (never a slice of Node's shared pool). */
function copyOf(b: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(b.length);
  b.copy(copy);
  return copy;
}

function buildLayout(entry: Entry, idLength: number): Layout {
  const headRoom = Buffer.byteLength(entry.head, 'utf8') + HEAD_ROOM_EXTRA;
  const template = Buffer.alloc(headRoom + entry.tail.reduce((n, part) => n + idLength + part.length, 0));
  const idOffsets: number[] = [];
  let at = headRoom;
  for (const part of entry.tail) {
    idOffsets.push(at);
    at += idLength;
    at += part.copy(template, at);
  }
  return { idLength, headRoom, template, idOffsets, pool: [] };
}

function escapeAttribute(s: string): string {
  if (!/[&<"]/.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** The header to encode a response with so that {@link ShoppingCache.patch} can fill it in later. */
export function sentinelHeader(): MessageHeader {
  return {
    target: 'Test',
    version: '17.2',
    timeStamp: SENTINEL.timeStamp,
    transactionIdentifier: SENTINEL.transactionIdentifier,
    correlationId: SENTINEL.correlationId,
  };
}

/**
 * Writes the real root attributes into XML encoded with {@link sentinelHeader}.
 * The root start tag comes first in the document, so the first occurrence of
 * each placeholder is the attribute (even if content repeats a placeholder).
 */
export function patchHeader(xml: string, header: MessageHeader): string {
  let out = xml.replace(SENTINEL.timeStamp, () => escapeAttribute(requireElement(header.timeStamp, '@TimeStamp')));
  for (const [attr, key] of [
    ['TransactionIdentifier', 'transactionIdentifier'],
    ['CorrelationID', 'correlationId'],
  ] as const) {
    const value = header[key];
    out =
      value === undefined
        ? out.replace(` ${attr}="${SENTINEL[key]}"`, '')
        : out.replace(SENTINEL[key], () => escapeAttribute(value));
  }
  return out;
}

type HeaderSlot = 'timeStamp' | 'transactionIdentifier' | 'correlationId';
const SLOT_ATTRIBUTE = { timeStamp: 'TimeStamp', transactionIdentifier: 'TransactionIdentifier', correlationId: 'CorrelationID' } as const;

/**
 * `xml` (encoded with {@link sentinelHeader}) cut at its placeholders once, so
 * that each answer's head is a few concatenations instead of three searches:
 * `parts[0] slot[0] parts[1] ... parts[n]`. A TimeStamp slot is the attribute
 * value; the other slots are whole attributes (left out when not echoed).
 */
export interface HeadTemplate {
  parts: string[];
  slots: HeaderSlot[];
}

/** The {@link HeadTemplate} of `xml`, or undefined when a placeholder is not where expected. */
export function compileHead(xml: string): HeadTemplate | undefined {
  const cuts: { at: number; length: number; slot: HeaderSlot }[] = [];
  for (const slot of ['timeStamp', 'transactionIdentifier', 'correlationId'] as const) {
    const token = slot === 'timeStamp' ? SENTINEL.timeStamp : ` ${SLOT_ATTRIBUTE[slot]}="${SENTINEL[slot]}"`;
    const at = xml.indexOf(token);
    if (at < 0) return undefined;
    cuts.push({ at, length: token.length, slot });
  }
  cuts.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) return undefined;
    parts.push(xml.slice(from, cut.at));
    from = cut.at + cut.length;
  }
  parts.push(xml.slice(from));
  return { parts, slots: cuts.map((c) => c.slot) };
}

/** `template` filled in with `header`: the same text as {@link patchHeader} gives. */
export function fillHead(template: HeadTemplate, header: MessageHeader): string {
  let out = template.parts[0];
  for (let i = 0; i < template.slots.length; i++) {
    const slot = template.slots[i];
    const value = header[slot];
    if (slot === 'timeStamp') out += escapeAttribute(requireElement(header.timeStamp, '@TimeStamp'));
    else if (value !== undefined) out += ` ${SLOT_ATTRIBUTE[slot]}="${escapeAttribute(value)}"`;
    out += template.parts[i + 1];
  }
  return out;
}

const ATTRIBUTE = /\s([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

type Echo = { transactionIdentifier?: string; correlationId?: string };

/**
 * A request's root start tag without the attributes that vary per request
 * and are not part of the cache key (TimeStamp, TransactionIdentifier,
 * CorrelationID), and the ids it asks to echo: one pass over the attributes
 * in order (a value is never mistaken for an attribute; the last of a name wins).
 */
function splitRootTag(tag: string): { canonical: string; echo: Echo } {
  const echo: Echo = {};
  let canonical = '';
  let from = 0;
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(tag); m; m = ATTRIBUTE.exec(tag)) {
    const name = m[1];
    if (name !== 'TimeStamp' && name !== 'TransactionIdentifier' && name !== 'CorrelationID') continue;
    canonical += tag.slice(from, m.index);
    from = ATTRIBUTE.lastIndex;
    if (name === 'TransactionIdentifier') echo.transactionIdentifier = unescapeXml(m[2] ?? m[3] ?? '');
    else if (name === 'CorrelationID') echo.correlationId = unescapeXml(m[2] ?? m[3] ?? '');
  }
  return { canonical: from === 0 ? tag : canonical + tag.slice(from), echo };
}

/** Cache key of a request and the ids its root asks to echo (see {@link ShoppingCache.request}). */
export interface CacheRequest {
  key: string;
  echo: { transactionIdentifier?: string; correlationId?: string };
}

/** zlib.crc32 (Node 20.15 and later; package.json allows Node 20.3). */
const crc32 = (zlib as { crc32?: (data: string) => number }).crc32;

/** Short Map key standing for a request key: its length and CRC-32 (the key itself without zlib.crc32). */
function fingerprint(key: string): string {
  return crc32 ? `${key.length}:${crc32(key)}` : key;
}

export class ShoppingCache {
  /**
   * Remembered searches by {@link fingerprint} of their key (each entry keeps its key to
   * compare): V8 hashes a fresh 1.5 KB key string for a Map at about twice the cost of
   * zlib's CRC-32 of it. Two keys with one fingerprint only displace each other.
   */
  private readonly entries = new Map<string, Entry>();
  private readonly aliases = new ShoppingAliasIds();
  /** Answers served from the cache (for tests and diagnostics). */
  hits = 0;

  constructor(
    private readonly store: AirlineStore,
    private readonly clock: AirlineClock,
  ) {}

  /**
   * Cache key of a request body: the body with the volatile root attributes
   * removed (prefixed `=`), or its SHA-256 when longer than
   * {@link SHOPPING_KEY_MAX_CHARS} (so remembered keys stay small). A Map
   * hashes a short string faster than SHA-256 does.
   */
  key(body: string): string | undefined {
    return this.request(body)?.key;
  }

  /** {@link key} of `body` and the ids its root asks to echo, from one search for the root tag. */
  request(body: string): CacheRequest | undefined {
    const m = ROOT_START.exec(body);
    if (!m) return undefined;
    const tag = m[0];
    const root = splitRootTag(tag);
    const canonical = body.slice(0, m.index) + root.canonical + body.slice(m.index + tag.length);
    const key = canonical.length <= SHOPPING_KEY_MAX_CHARS ? `=${canonical}` : createHash('sha256').update(canonical).digest('base64url');
    return { key, echo: root.echo };
  }

  /**
   * The remembered answer for `key` with `header` and a fresh response id, as
   * UTF-8 bytes; or undefined. Call `release` once the bytes are written or
   * dropped (the buffer then serves a later answer); never touch them after.
   */
  lookup(key: string, header: MessageHeader): CachedAnswer | undefined {
    const fp = fingerprint(key);
    const entry = this.entries.get(fp);
    if (!entry || entry.key !== key) return undefined;
    const now = this.clock.now();
    if (
      entry.generation !== this.store.generation ||
      now.getTime() - entry.cachedAt >= SHOPPING_CACHE_TTL_MS ||
      Math.floor(now.getTime() / DAY_MS) !== entry.day
    ) {
      this.entries.delete(fp);
      return undefined;
    }
    this.hits++;
    const head = entry.headTemplate ? fillHead(entry.headTemplate, header) : patchHeader(entry.head, header);
    if (!entry.responseId) return { body: Buffer.from(head, 'utf8') };
    const responseId = this.aliases.next(entry.responseId, now.getTime());
    const layout = (entry.layout ??= buildLayout(entry, responseId.length));
    const headBytes = Buffer.byteLength(head, 'utf8');
    if (entry.asciiId && responseId.length === layout.idLength && headBytes <= layout.headRoom) {
      const buf = layout.pool.pop() ?? copyOf(layout.template);
      buf.write(head, layout.headRoom - headBytes, 'utf8');
      // One conversion of the id, then TypedArray copies: a third of the cost of
      // 35 Buffer#write calls (each crosses into C++).
      const idBytes = Buffer.from(responseId, 'latin1');
      for (const at of layout.idOffsets) buf.set(idBytes, at);
      let released = false;
      return {
        body: buf.subarray(layout.headRoom - headBytes),
        release: () => {
          if (released) return;
          released = true;
          if (layout.pool.length < POOL_MAX) layout.pool.push(buf);
        },
      };
    }
    const id = Buffer.from(responseId, 'utf8');
    const parts: Buffer[] = [Buffer.from(head, 'utf8')];
    for (const part of entry.tail) parts.push(id, part);
    return { body: Buffer.concat(parts) };
  }

  /** Remembers the answer `xml` (encoded with {@link sentinelHeader}) of a successful search. */
  remember(key: string, rs: AirShoppingRs, xml: string): void {
    if (rs.kind === 'error') return;
    const now = this.clock.now();
    const entry: Entry = {
      key,
      head: xml,
      tail: [],
      cachedAt: now.getTime(),
      day: Math.floor(now.getTime() / DAY_MS),
      generation: this.store.generation,
    };
    if (rs.kind === 'day') {
      entry.responseId = rs.shoppingResponseId;
      entry.asciiId = /^[\w-]+$/.test(rs.shoppingResponseId);
      const [head, ...rest] = xml.split(rs.shoppingResponseId);
      entry.head = head;
      entry.tail = rest.map((part) => Buffer.from(part, 'utf8'));
    }
    entry.headTemplate = compileHead(entry.head);
    const fp = fingerprint(key);
    this.entries.delete(fp);
    this.entries.set(fp, entry);
    if (this.entries.size > SHOPPING_CACHE_MAX) this.entries.delete(this.entries.keys().next().value as string);
  }
}
