import { NDC_NS, SOAP11_NS } from '../../ndc';
import { formatLocalTimestamp, rootEcho } from './ndc-messages';

describe('formatLocalTimestamp', () => {
  function at(iso: string, offsetMinutes: number): Date {
    const d = new Date(iso);
    jest.spyOn(d, 'getTimezoneOffset').mockReturnValue(-offsetMinutes);
    return d;
  }

  it.each([
    ['2026-11-21T06:01:02.345Z', 0, '2026-11-21T06:01:02.345+00:00'],
    ['2026-11-21T06:01:02.005Z', 60, '2026-11-21T07:01:02.005+01:00'],
    ['2026-11-21T02:00:00.000Z', -300, '2026-11-20T21:00:00.000-05:00'],
    ['2026-11-21T06:00:00.000Z', 330, '2026-11-21T11:30:00.000+05:30'],
  ])('%s at offset %i minutes is %s', (iso, offset, expected) => {
    expect(formatLocalTimestamp(at(iso, offset))).toBe(expected);
  });
});

describe('rootEcho (the ids of a body that did not decode)', () => {
  const root = `<FooRQ xmlns="${NDC_NS}" Version="17.2" TransactionIdentifier="TX-1" CorrelationID='CORR-1'/>`;

  it('reads the NDC root, plain or inside a SOAP envelope', () => {
    const soap = `<?xml version="1.0"?><s:Envelope xmlns:s="${SOAP11_NS}" TransactionIdentifier="TX-ENV"><s:Body>${root}</s:Body></s:Envelope>`;
    expect(rootEcho(root)).toEqual({ transactionIdentifier: 'TX-1', correlationId: 'CORR-1' });
    expect(rootEcho(soap)).toEqual({ transactionIdentifier: 'TX-1', correlationId: 'CORR-1' });
  });

  it('leaves out what the response root cannot carry, and reads no other attribute', () => {
    const long = `<FooRQ xmlns="${NDC_NS}" TransactionIdentifier="${'x'.repeat(33)}" XCorrelationID="C"/>`;
    expect(rootEcho(long)).toEqual({});
  });
});
