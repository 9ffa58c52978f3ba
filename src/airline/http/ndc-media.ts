/**
 * Media types of the retail interface. Requests and responses use
 * `application/vnd.<vendor>.ndc.v17.2+xml;charset=UTF-8`; `application/xml`
 * and `text/xml` are accepted too (in Content-Type and in Accept). Matching
 * and negotiation are Express's (`req.is`, `req.accepts`: the jshttp
 * `type-is` and `accepts` libraries).
 */
import type { ExpressRequest as Request } from './express.types';

/** `application/vnd.<vendor>.ndc.v17.2+xml` (without parameters). */
export function ndcMediaType(vendor: string): string {
  return `application/vnd.${vendor}.ndc.v17.2+xml`;
}

/** Media types (no parameters) the service accepts and can produce, best first. */
export function xmlMediaTypes(vendor: string): string[] {
  return [ndcMediaType(vendor), 'application/xml', 'text/xml'];
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** SOAP 1.2's media type (SOAP 1.1 travels as `text/xml`). */
export const SOAP12_MEDIA_TYPE = 'application/soap+xml';

/**
 * True when the request's Content-Type is one of {@link xmlMediaTypes} (or
 * SOAP 1.2's) with no charset or charset UTF-8 (what the body parser reads
 * and the codec decodes).
 */
export function isNdcRequestType(req: Request, vendor: string): boolean {
  if (!req.is([...xmlMediaTypes(vendor), SOAP12_MEDIA_TYPE])) return false;
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/**
 * The media type to answer with, given the request's Accept header: the
 * vendor type when acceptable (also without an Accept header), else
 * `application/xml` or `text/xml`, whichever the client prefers; undefined
 * when none is acceptable (406).
 */
export function negotiateXml(req: Request, vendor: string): string | undefined {
  // A range with parameters only matches an offer with the same ones: UTF-8 is offered explicitly too.
  // SOAP 1.2 clients may accept only application/soap+xml (their answer's type, see NdcMessages).
  const offered = [...xmlMediaTypes(vendor), SOAP12_MEDIA_TYPE].flatMap((t) => [t, `${t};charset=utf-8`]);
  const chosen = req.accepts(offered);
  if (typeof chosen !== 'string') return undefined;
  const type = chosen.split(';')[0];
  return type === SOAP12_MEDIA_TYPE ? ndcMediaType(vendor) : type;
}
