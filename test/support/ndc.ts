/**
 * Spec helpers for the NDC codec (`src/ndc/*.spec.ts`). Test-only: nothing under `src/` outside
 * a spec imports this file.
 */
import { EXT_NS, NDC_NS } from '../../src/ndc/namespaces';
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
