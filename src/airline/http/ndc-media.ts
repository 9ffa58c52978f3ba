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
 * The media types of one vendor, worked out once (the service holds one
 * instance from its configuration): what a request may be sent as and what an
 * answer may be negotiated to.
 */
export class NdcMediaTypes {
  /** `application/vnd.<vendor>.ndc.v17.2+xml` (without parameters). */
  readonly ndc: string;
  private readonly requestTypes: string[];
  /** Accept offers: each type bare and with charset UTF-8 (a range with parameters only matches an offer with the same ones). */
  private readonly offered: string[];

  constructor(vendor: string) {
    this.ndc = ndcMediaType(vendor);
    // SOAP 1.2 clients may send and accept only application/soap+xml (their answer's type, see NdcMessages).
    this.requestTypes = [...xmlMediaTypes(vendor), SOAP12_MEDIA_TYPE];
    this.offered = this.requestTypes.flatMap((t) => [t, `${t};charset=utf-8`]);
  }

  /**
   * True when the request's Content-Type is one of {@link xmlMediaTypes} (or
   * SOAP 1.2's) with no charset or charset UTF-8 (what the body parser reads
   * and the codec decodes).
   */
  isRequestType(req: Request): boolean {
    if (!req.is(this.requestTypes)) return false;
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    return charset === undefined || charset === 'utf-8' || charset === 'utf8';
  }

  /**
   * The media type to answer with, given the request's Accept header: the
   * vendor type when acceptable (also without an Accept header), else
   * `application/xml` or `text/xml`, whichever the client prefers; undefined
   * when none is acceptable (406).
   */
  negotiate(req: Request): string | undefined {
    const chosen = req.accepts(this.offered);
    if (typeof chosen !== 'string') return undefined;
    const type = chosen.split(';')[0];
    return type === SOAP12_MEDIA_TYPE ? this.ndc : type;
  }
}
