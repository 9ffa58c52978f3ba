/**
 * Spec helpers for the NDC codec and client (`src/ndc/*.spec.ts`, `src/ndc-client/*.spec.ts`).
 * Test-only: nothing under `src/` outside a spec imports this file.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A request the {@link startNdcServer} server received. */
export interface SeenRequest {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How the test server answers a request (its body already read). */
export type NdcServerHandler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

/** A local HTTP server standing in for an airline, for the NDC client's specs. */
export interface NdcTestServer {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** Every request received, in order (clear it with `seen.length = 0`). */
  seen: SeenRequest[];
  /** Sets how the next requests are answered. */
  handle(handler: NdcServerHandler): void;
  /** Answers every request with `body` (status 200 unless given, `application/xml`). */
  answer(body: string | Buffer, status?: number): void;
  close(): Promise<void>;
}

/** Starts {@link NdcTestServer} on a free loopback port; resolves once it listens. */
export async function startNdcServer(): Promise<NdcTestServer> {
  const seen: SeenRequest[] = [];
  let handler: NdcServerHandler = (_req, _body, res) => res.writeHead(500).end();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    handle: (h) => (handler = h),
    answer: (body, status = 200) =>
      (handler = (_req, _body, res) => {
        res.writeHead(status, { 'Content-Type': 'application/xml' });
        res.end(body);
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
