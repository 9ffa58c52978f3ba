/**
 * The XML plumbing shared by every NDC message codec, one job per module:
 * `namespaces.ts` (the namespaces), `xml-guard.ts` (size, DOCTYPE and
 * well-formedness checks), `xml-scan.ts` (root and namespace scans without a
 * parse), `soap.ts` (SOAP envelopes), `xml-read.ts` (the parse and the
 * readers), `xml-write.ts` (xmlbuilder2 writers). This file re-exports them so
 * codecs import from one place.
 */
export { EXT_NS, NDC_NS, XS_NS, XSI_NS } from './namespaces';
export { DEFAULT_MAX_BYTES, wellFormednessError } from './xml-guard';
export { unescapeXml } from './xml-scan';
export * from './xml-read';
export * from './xml-write';
