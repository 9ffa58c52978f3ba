/** Why an NDC document could not be decoded. Stable: callers map these to responses. */
export type NdcDecodeErrorCode =
  /** Not well-formed XML (or not exactly one root element). */
  | 'MALFORMED_XML'
  /** Larger than the size limit (default 5 MiB). */
  | 'TOO_LARGE'
  /** A `<!DOCTYPE` or `<!ENTITY` declaration: refused before parsing. */
  | 'DOCTYPE_FORBIDDEN'
  /** The root element is not the expected message. */
  | 'WRONG_ROOT'
  /** The root (or an extension element) is not in the expected namespace. */
  | 'WRONG_NAMESPACE'
  /** A SOAP envelope whose Body holds a SOAP Fault instead of an NDC message. */
  | 'SOAP_FAULT'
  /** A required element or attribute is absent or empty. */
  | 'MISSING'
  /** A value is present but not acceptable (e.g. an amount that is not a decimal). */
  | 'INVALID_VALUE'
  /** An NDC Exchange envelope announcing another SchemaType than NDC or another version than 17.2. */
  | 'UNSUPPORTED_SCHEMA';

/**
 * Thrown by every `decode*` function of the NDC codec. `path` names where the
 * problem is, XPath-like with 1-based positions of repeated elements, e.g.
 * `/AirShoppingRQ/CoreQuery/OriginDestinations/OriginDestination[1]/Departure/AirportCode`
 * (attributes as `/@Name`). It is `''` when the problem is the document as a whole.
 */
export class NdcDecodeError extends Error {
  override readonly name = 'NdcDecodeError';

  constructor(
    readonly code: NdcDecodeErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(path ? `${message} at ${path}` : message);
  }
}
