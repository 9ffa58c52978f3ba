/**
 * Media types of the retail interface. Requests and responses use
 * `application/vnd.<vendor>.ndc.v17.2+xml;charset=UTF-8`; `application/xml`
 * and `text/xml` are accepted too (in Content-Type and in Accept).
 */

/** `application/vnd.<vendor>.ndc.v17.2+xml` (without parameters). */
export function ndcMediaType(vendor: string): string {
  return `application/vnd.${vendor}.ndc.v17.2+xml`;
}

interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

function parseMediaRange(s: string): MediaRange | undefined {
  const [full, ...rawParams] = s.split(';');
  const m = /^\s*([a-z0-9!#$&^_.+*-]+)\/([a-z0-9!#$&^_.+*-]+)\s*$/i.exec(full);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    params[p.slice(0, eq).trim().toLowerCase()] = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: m[1].toLowerCase(), subtype: m[2].toLowerCase(), params };
}

/** Media types (lower case, no parameters) the service accepts and can produce, best first. */
export function xmlMediaTypes(vendor: string): string[] {
  return [ndcMediaType(vendor), 'application/xml', 'text/xml'];
}

/**
 * True when a request Content-Type is one of {@link xmlMediaTypes}, with no
 * charset or charset UTF-8.
 */
export function isAcceptedContentType(header: string | undefined, vendor: string): boolean {
  if (!header) return false;
  const r = parseMediaRange(header);
  if (!r) return false;
  if (!xmlMediaTypes(vendor).includes(`${r.type}/${r.subtype}`)) return false;
  const charset = r.params.charset?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/**
 * The media type to answer with given the request's Accept header: the
 * vendor type when acceptable (also for a missing Accept), else
 * `application/xml` or `text/xml`, whichever the client prefers; undefined
 * when none is acceptable (406).
 */
export function negotiateXml(accept: string | undefined, vendor: string): string | undefined {
  const candidates = xmlMediaTypes(vendor);
  if (accept === undefined || accept.trim() === '') return candidates[0];
  const ranges = accept
    .split(',')
    .map(parseMediaRange)
    .filter((r): r is MediaRange => r !== undefined);
  let best: { type: string; q: number } | undefined;
  for (const candidate of candidates) {
    const [type, subtype] = candidate.split('/');
    // The most specific matching range decides the quality of a candidate.
    let specificity = -1;
    let q = 0;
    for (const r of ranges) {
      const s =
        r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
      if (s > specificity) {
        specificity = s;
        const parsed = r.params.q === undefined ? 1 : Number(r.params.q);
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    if (q > 0 && (!best || q > best.q)) best = { type: candidate, q };
  }
  return best?.type;
}

/** True when the Accept-Encoding header allows gzip. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (coding === 'gzip' || coding === 'x-gzip') return q > 0;
    if (coding === '*') star = q;
  }
  return star !== undefined && star > 0;
}
