/** The namespaces of NDC documents. */

/** The NDC 17.2 (EDIST 2017.2) message namespace. */
export const NDC_NS = 'http://www.iata.org/IATA/EDIST/2017.2';
/**
 * Default namespace of ndc-saga's extension elements (written with the prefix
 * `ns2`). The codec takes another one through the `extensionNamespace` option
 * of `ParseOptions` and `EncodeOptions` (the airline and the client pass
 * `AIRLINE_EXTENSION_NAMESPACE`).
 */
export const EXT_NS = 'http://www.ndc-saga.dev/schema/ndc-ext/17.2';
/** XML Schema instance namespace (`xsi:nil`, `xsi:type`). */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
/** XML Schema namespace, bound to `xs` in responses for `xsi:type="xs:string"`. */
export const XS_NS = 'http://www.w3.org/2001/XMLSchema';
/** The namespace of `xmlns` declarations themselves (DOM APIs need it). */
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/** Name under which extension elements appear in the parsed tree, and the prefix encoders write: `ns2:`. */
export const EXT_PREFIX = 'ns2:';
