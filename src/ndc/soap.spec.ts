import { decodeError } from '../../test/support/ndc';
import { dayRoundTripRs } from './fixtures/air-shopping-rs.fixtures';
import { orderCancelRq } from './fixtures/order-cancel.fixtures';
import { orderRetrieveRq } from './fixtures/order-retrieve-rq.fixtures';
import { decodeAirShoppingRs, encodeAirShoppingRs } from './air-shopping-rs.codec';
import { decodeOrderCancelRq, encodeOrderCancelRq } from './order-cancel-rq.codec';
import { decodeOrderRetrieveRq, encodeOrderRetrieveRq } from './order-retrieve-rq.codec';
import {
  bindingContentType,
  bindingHeaders,
  detectBinding,
  exchangeSchemaProblem,
  readExchangeHeader,
  SOAP11_NS,
  SOAP12_NS,
  wrapInBinding,
} from './soap';
import { NDC_NS, ndcRootName } from './xml';

const ndcBody = (xml: string) => xml.replace(/^<\?xml[^?]*\?>/, '');

describe('SOAP bindings', () => {
  it('wraps an encoded document in the envelope of each SOAP version, and plain leaves it alone', () => {
    const xml = encodeOrderCancelRq(orderCancelRq);
    expect(wrapInBinding(xml, 'plain')).toBe(xml);
    expect(wrapInBinding(xml, 'soap11')).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body>${ndcBody(xml)}</soap:Body></soap:Envelope>`,
    );
    expect(wrapInBinding(xml, 'soap12')).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${SOAP12_NS}"><env:Body>${ndcBody(xml)}</env:Body></env:Envelope>`,
    );
  });

  it('decodes a wrapped request and response of both versions to the same model, and detects the binding', () => {
    for (const binding of ['soap11', 'soap12'] as const) {
      const rq = wrapInBinding(encodeOrderCancelRq(orderCancelRq), binding);
      expect(detectBinding(rq)).toBe(binding);
      expect(detectBinding(Buffer.from(rq))).toBe(binding);
      expect(ndcRootName(rq)).toBe('OrderCancelRQ');
      expect(decodeOrderCancelRq(rq)).toStrictEqual(orderCancelRq);
      const rs = wrapInBinding(encodeAirShoppingRs(dayRoundTripRs), binding);
      expect(decodeAirShoppingRs(Buffer.from(rs))).toStrictEqual(dayRoundTripRs);
    }
    expect(detectBinding(encodeOrderCancelRq(orderCancelRq))).toBe('plain');
    expect(detectBinding('<Envelope xmlns="urn:other"><Body/></Envelope>')).toBe('plain');
    expect(detectBinding('not xml')).toBe('plain');
  });

  it('ignores SOAP headers and reads prefixes bound on Envelope and Body, comments and whitespace between', () => {
    const inner = ndcBody(encodeOrderRetrieveRq(orderRetrieveRq))
      .replace(`<OrderRetrieveRQ xmlns="${NDC_NS}"`, '<n:OrderRetrieveRQ')
      .replace(/<(\/?)(?!n:|ns2:|xsi:)([A-Za-z])/g, '<$1n:$2');
    const xml =
      `<?xml version="1.0"?>\n<!-- from partner X -->\n<S:Envelope xmlns:S="${SOAP12_NS}" xmlns:wsse="urn:wsse">\n` +
      '  <S:Header><wsse:Security S:mustUnderstand="true"><wsse:UsernameToken><wsse:Username>agency</wsse:Username>' +
      '<Body>not the body</Body></wsse:UsernameToken></wsse:Security><!-- <S:Body> --></S:Header>\n' +
      `  <S:Body xmlns:n="${NDC_NS}"><!-- the request -->\n${inner}\n</S:Body>\n</S:Envelope>`;
    expect(detectBinding(xml)).toBe('soap12');
    expect(ndcRootName(xml)).toBe('OrderRetrieveRQ');
    expect(decodeOrderRetrieveRq(xml)).toStrictEqual(orderRetrieveRq);
    const soap11 = xml.split(SOAP12_NS).join(SOAP11_NS);
    expect(detectBinding(soap11)).toBe('soap11');
    expect(decodeOrderRetrieveRq(soap11)).toStrictEqual(orderRetrieveRq);
  });

  it('reports a SOAP 1.1 and a SOAP 1.2 Fault body as SOAP_FAULT, with code and reason', () => {
    const f11 =
      `<soapenv:Envelope xmlns:soapenv="${SOAP11_NS}"><soapenv:Body><soapenv:Fault>` +
      '<faultcode>soapenv:Server</faultcode><faultstring>Backend &amp; cache down</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>';
    const e = decodeError(() => decodeOrderCancelRq(f11));
    expect([e.code, e.path, e.message]).toEqual([
      'SOAP_FAULT',
      '/Envelope/Body/Fault',
      'SOAP Fault instead of an NDC message (soapenv:Server: Backend & cache down) at /Envelope/Body/Fault',
    ]);
    const f12 =
      `<env:Envelope xmlns:env="${SOAP12_NS}"><env:Header/><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code>` +
      '<env:Reason><env:Text xml:lang="en">Timeout</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>';
    expect(decodeError(() => decodeAirShoppingRs(f12)).message).toBe(
      'SOAP Fault instead of an NDC message (env:Receiver: Timeout) at /Envelope/Body/Fault',
    );
    expect(decodeError(() => ndcRootName(f12)).code).toBe('SOAP_FAULT');
  });

  it('refuses an envelope without Body content, a wrong NDC root inside, and an envelope that is not SOAP', () => {
    const empty = decodeError(() => decodeOrderCancelRq(`<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body/></s:Envelope>`));
    expect([empty.code, empty.path]).toEqual(['MISSING', '/Envelope/Body']);
    const noBody = decodeError(() =>
      decodeOrderCancelRq(`<s:Envelope xmlns:s="${SOAP11_NS}"><s:Header/></s:Envelope>`),
    );
    expect([noBody.code, noBody.path]).toEqual(['MISSING', '/Envelope/Body']);
    const wrong = decodeError(() =>
      decodeOrderCancelRq(wrapInBinding(encodeOrderRetrieveRq(orderRetrieveRq), 'soap11')),
    );
    expect(wrong.code).toBe('WRONG_ROOT');
    const foreign = decodeError(() =>
      decodeOrderCancelRq(
        `<Envelope xmlns="urn:x"><Body>${ndcBody(encodeOrderCancelRq(orderCancelRq))}</Body></Envelope>`,
      ),
    );
    expect(foreign.code).toBe('WRONG_ROOT');
    const malformed = decodeError(() =>
      decodeOrderCancelRq(wrapInBinding(encodeOrderCancelRq(orderCancelRq), 'soap11').replace('</soap:Body>', '')),
    );
    expect(malformed.code).toBe('MALFORMED_XML');
  });

  it('tells a client which headers each binding sends', () => {
    const vnd = 'application/vnd.xs.ndc.v17.2+xml;charset=UTF-8';
    expect(bindingHeaders('plain', 'AirShoppingRQ', vnd)).toEqual({ 'Content-Type': vnd });
    expect(bindingHeaders('soap11', 'AirShoppingRQ', vnd)).toEqual({
      'Content-Type': 'text/xml; charset=utf-8',
      SOAPAction: '"AirShoppingRQ"',
    });
    expect(bindingHeaders('soap12', 'OrderCancelRQ', vnd)).toEqual({
      'Content-Type': 'application/soap+xml; charset=utf-8; action="OrderCancelRQ"',
    });
    expect(bindingContentType('soap12', vnd)).toBe('application/soap+xml; charset=utf-8');
    expect(bindingContentType('plain', vnd)).toBe(vnd);
  });

  describe('NDC Exchange header', () => {
    const HUB = 'urn:example:hub';
    /** A hub envelope written by hand: prefix `x`, white space, CDATA in a field, the payload inline. */
    const envelope = (message: string, sender = '<x:Sender><x:SellerID> AG-1 </x:SellerID></x:Sender>') =>
      `<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body><x:NDCMSG_Envelope xmlns:x="${HUB}">\n` +
      `<x:NDCMSG_Header>${sender}<x:Recipient><x:Company><![CDATA[XS]]></x:Company></x:Recipient>` +
      `<x:Message>${message}</x:Message></x:NDCMSG_Header>` +
      `<x:NDCMSG_Body><x:NDCMSG_Payload>${ndcBody(encodeAirShoppingRs(dayRoundTripRs))}</x:NDCMSG_Payload></x:NDCMSG_Body>` +
      '</x:NDCMSG_Envelope></s:Body></s:Envelope>';

    it('reads every field of the header under any prefix, bare or in SOAP; not an exchange envelope: undefined', () => {
      const soap = envelope(
        '<x:SchemaType>NDC</x:SchemaType><x:SchemaVersion>YY.2017.2</x:SchemaVersion><x:Name>AirShoppingRS</x:Name>',
      );
      const header = {
        namespace: HUB,
        sellerId: 'AG-1',
        recipient: 'XS',
        schemaType: 'NDC',
        schemaVersion: 'YY.2017.2',
        name: 'AirShoppingRS',
      };
      expect(readExchangeHeader(soap)).toStrictEqual(header);
      const bare = soap.replace(/^<s:Envelope[^>]*><s:Body>/, '').replace('</s:Body></s:Envelope>', '');
      expect(readExchangeHeader(bare)).toStrictEqual(header);
      expect(readExchangeHeader(envelope('', ''))).toStrictEqual({ namespace: HUB, recipient: 'XS' });
      expect(readExchangeHeader(wrapInBinding(encodeOrderCancelRq(orderCancelRq), 'soap11'))).toBeUndefined();
      expect(readExchangeHeader(encodeOrderCancelRq(orderCancelRq))).toBeUndefined();
    });

    it.each([
      ['NDC', 'YY.2017.2'],
      ['ndc', 'LH.2017.2'],
      ['NDC', 'XS.17.2'],
      ['NDC', '2017.2'],
      ['NDC', '17.2'],
      ['NDC', 'AF-17.2'],
    ])('accepts SchemaType %s with SchemaVersion %s as NDC 17.2', (schemaType, schemaVersion) => {
      expect(exchangeSchemaProblem({ schemaType, schemaVersion })).toBeUndefined();
      const xml = envelope(
        `<x:SchemaType>${schemaType}</x:SchemaType><x:SchemaVersion>${schemaVersion}</x:SchemaVersion>`,
      );
      expect(decodeAirShoppingRs(xml).kind).toBe('day');
    });

    it('accepts a header that names neither, and refuses another type or version naming the field', () => {
      expect(exchangeSchemaProblem({})).toBeUndefined();
      expect(exchangeSchemaProblem({ schemaVersion: 'YY.2018.1' })).toBe(
        'NDCMSG_Header/Message/SchemaVersion YY.2018.1 is not NDC 17.2 (e.g. YY.2017.2)',
      );
      expect(exchangeSchemaProblem({ schemaVersion: '17.20' })).toContain('17.20 is not NDC 17.2');
      expect(exchangeSchemaProblem({ schemaType: 'EDIFACT', schemaVersion: '17.2' })).toBe(
        'NDCMSG_Header/Message/SchemaType EDIFACT is not NDC',
      );
      const error = decodeError(() => decodeAirShoppingRs(envelope('<x:SchemaVersion>YY.2018.1</x:SchemaVersion>')));
      expect([error.code, error.path]).toStrictEqual(['UNSUPPORTED_SCHEMA', '/NDCMSG_Envelope/NDCMSG_Header/Message']);
    });
  });
});
