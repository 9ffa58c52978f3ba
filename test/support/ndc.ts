/**
 * Spec helpers for the NDC codec (`src/ndc/*.spec.ts`). Test-only: nothing under `src/` outside
 * a spec imports this file.
 */
import { EXT_NS, NDC_NS } from '../../src/ndc/namespaces';
import { SOAP11_NS } from '../../src/ndc/soap';
import { NdcDecodeError } from '../../src/ndc/ndc-decode-error';
import { expectValidXsd } from './xsd';

/**
 * Runs `f` and returns the `NdcDecodeError` it throws. Any other error is rethrown, and a `f` that
 * returns normally fails the test with "expected an NdcDecodeError".
 */
export function decodeError(f: () => unknown): NdcDecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof NdcDecodeError) return e;
    throw e;
  }
  throw new Error('expected an NdcDecodeError');
}

/**
 * Encodes `msg`, checks the XML against the XSD of `root`, and decodes it again: the XML and the
 * model read back, for the spec to compare.
 */
export function xsdRoundTrip<T>(
  msg: T,
  encode: (m: T) => string,
  decode: (xml: string) => T,
  root: string,
): { xml: string; back: T } {
  const xml = encode(msg);
  expectValidXsd(xml, root);
  return { xml, back: decode(xml) };
}

/**
 * The golden XML of a request built on `requestBaseFixture` (src/ndc/fixtures), from the XML
 * declaration to the end of its `Party`: root `root` with the header attributes, PointOfSale,
 * Document, and the Party with its aggregator participant.
 */
export function goldenRequestHead(root: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<${root} xmlns="${NDC_NS}" xmlns:ns2="${EXT_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` +
    ' Target="Test" Version="17.2" TimeStamp="2026-11-21T06:00:00Z" TransactionIdentifier="TX-5f1c2a" CorrelationID="corr-0001">' +
    '<PointOfSale><Location><CountryCode>GB</CountryCode></Location></PointOfSale>' +
    '<Document/>' +
    '<Party><Sender><TravelAgencySender><Name>Saga Travel &amp; Co</Name><AgencyID>SAGA01</AgencyID></TravelAgencySender></Sender>' +
    '<Participants><Participant><AggregatorParticipant SequenceNumber="1"><Name>NDC Hub</Name><AggregatorID>AGG77</AggregatorID>' +
    '</AggregatorParticipant></Participant></Participants><Recipient xsi:nil="true"/></Party>'
  );
}

/** The provider namespace of the wrapped-document specs (a made-up URN, as a provider's own namespace). */
export const PROVIDER_NS = 'urn:example:ndc-provider:retail:v1';

/**
 * The NDC document `xml` (as our encoders write it, NDC the default namespace of its root) as a
 * provider delivers it: the root's own `xmlns` removed, inside a provider wrapper (with a header of
 * its own before it) whose default namespace `ns` every NDC element then inherits. American
 * Airlines' 17.2 responses through its provider arrive in this shape.
 */
export function providerWrapped(xml: string, ns = PROVIDER_NS): string {
  const body = xml.replace(/^<\?xml[^?]*\?>/, '').replace(` xmlns="${NDC_NS}"`, '');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><ProviderResponse xmlns="${ns}">` +
    '<ResponseHeader><RequestId>req-7f3a</RequestId><Carrier>AA</Carrier></ResponseHeader>' +
    `${body}</ProviderResponse>`
  );
}

/** The NDC document `xml` straight in a SOAP 1.1 Body that declares the provider's namespace `ns` as its default one. */
export function inProviderSoapBody(xml: string, ns = PROVIDER_NS): string {
  const body = xml.replace(/^<\?xml[^?]*\?>/, '').replace(` xmlns="${NDC_NS}"`, '');
  return `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body xmlns="${ns}">${body}</soap:Body></soap:Envelope>`;
}
