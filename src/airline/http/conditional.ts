/**
 * Conditional GETs at the origin server: `If-None-Match` (RFC 9110 §13.1.2), evaluated whatever
 * `Cache-Control` the request carries. `Cache-Control: no-cache` is a directive for caches
 * (RFC 9111 §5.2.1.4), and a WHATWG `fetch` client (Node's own, a browser's) sends it with every
 * conditional request; Express's `req.fresh` then says stale, so it is not used.
 */

/** An entity-tag of a list (`W/"x"`, `"x"`; its opaque tag may hold commas), or `*`. */
const LIST_MEMBER = /\*|(?:W\/)?"[^"]*"/g;

/** The opaque tag of `etag` (weak comparison ignores the `W/` prefix). */
function opaqueTag(etag: string): string {
  return etag.trim().replace(/^W\//, '');
}

/**
 * True when `ifNoneMatch` (the request's field value; Node joins repeated fields with commas)
 * says the client already has the representation tagged `etag`, so a GET is answered 304: the
 * field is `*`, or one of its entity-tags equals `etag` under weak comparison. Malformed members
 * are skipped; no field: false.
 */
export function isNotModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const current = opaqueTag(etag);
  return (ifNoneMatch.match(LIST_MEMBER) ?? []).some((tag) => tag === '*' || opaqueTag(tag) === current);
}
