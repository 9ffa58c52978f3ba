import { decodeError, xsdRoundTrip } from '../../test/support/ndc';
import { expectValidXsd } from '../../test/support/xsd';
import { customerInputRq, customerInputRs, preAuthenticatedOrderCreateRq } from './fixtures/customer-input.fixtures';
import { decodeCustomerInputRq, encodeCustomerInputRq } from './customer-input-rq.codec';
import { decodeCustomerInputRs, encodeCustomerInputRs } from './customer-input-rs.codec';
import type { CustomerInputRq, CustomerInputRs } from './ndc.model';
import { decodeOrderCreateRq, encodeOrderCreateRq } from './order-create-rq.codec';
import { EXT_NS, NDC_NS, ndcRootName } from './xml';

const rqRoundTrip = (m: CustomerInputRq) =>
  xsdRoundTrip(m, encodeCustomerInputRq, decodeCustomerInputRq, 'CustomerInputRQ');
const rsRoundTrip = (m: CustomerInputRs) =>
  xsdRoundTrip(m, encodeCustomerInputRs, decodeCustomerInputRs, 'CustomerInputRS');

const rootOpen = (root: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>' +
  `<${root} xmlns="${NDC_NS}" xmlns:ns2="${EXT_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;

describe('CustomerInputRQ codec', () => {
  it('encodes the exact golden XML, valid against the XSD, that decodes to the same model', () => {
    const { xml, back } = rqRoundTrip(customerInputRq);
    expect(back).toStrictEqual(customerInputRq);
    expect(xml).toBe(
      rootOpen('CustomerInputRQ') +
        ' Target="Test" Version="17.2" TimeStamp="2026-11-21T06:05:01.125+00:00" TransactionIdentifier="TX-5f1c2a" CorrelationID="corr-0001">' +
        '<Document/><Party><Sender><TravelAgencySender><Name>Saga Travel &amp; Co</Name><AgencyID>SAGA01</AgencyID></TravelAgencySender></Sender>' +
        '<Recipient xsi:nil="true"/></Party>' +
        '<Query><SecurePayments><SecurePayment><TransactionType>Authorize</TransactionType>' +
        '<Reference><SPM_TxnReference>SPM-7Q2K9XW4MB</SPM_TxnReference><OriginalTransactionID>TX-5f1c2a</OriginalTransactionID></Reference>' +
        '<URLs><ACS_URL>https://acs.airline.example/3ds/acs/SPM-7Q2K9XW4MB</ACS_URL>' +
        '<FailURL>https://agency.example/booking/fail?session=9f2&amp;step=3ds</FailURL>' +
        '<TermURL>https://agency.example/booking/done?session=9f2</TermURL></URLs>' +
        '<Amount Code="EUR">2180.05</Amount></SecurePayment></SecurePayments></Query></CustomerInputRQ>',
    );
  });

  it('decodes a query without SecurePayments (a PIN request) to no challenges, and is routed by its root', () => {
    const xml = encodeCustomerInputRq(customerInputRq).replace(/<SecurePayments>.*<\/SecurePayments>/, '');
    expectValidXsd(xml, 'CustomerInputRQ');
    expect(decodeCustomerInputRq(xml).securePayments).toStrictEqual([]);
    expect(ndcRootName(encodeCustomerInputRq(customerInputRq))).toBe('CustomerInputRQ');
  });

  it('refuses to encode no challenge, and names a missing Party and a bad amount', () => {
    expect(() => encodeCustomerInputRq({ ...customerInputRq, securePayments: [] })).toThrow(
      'CustomerInputRQ needs at least one SecurePayment',
    );
    const xml = encodeCustomerInputRq(customerInputRq);
    const e = decodeError(() => decodeCustomerInputRq(xml.replace(/<Party>.*<\/Party>/, '')));
    expect([e.code, e.path]).toEqual(['MISSING', '/CustomerInputRQ/Party']);
    const f = decodeError(() => decodeCustomerInputRq(xml.replace('>2180.05<', '>2180,05<')));
    expect([f.code, f.path]).toEqual([
      'INVALID_VALUE',
      '/CustomerInputRQ/Query/SecurePayments/SecurePayment[1]/Amount',
    ]);
  });
});

describe('CustomerInputRS codec', () => {
  it('encodes the exact golden XML, valid against the XSD, that decodes to the same model', () => {
    const { xml, back } = rsRoundTrip(customerInputRs);
    expect(back).toStrictEqual(customerInputRs);
    expect(xml).toBe(
      rootOpen('CustomerInputRS') +
        ' Target="Test" Version="17.2" TimeStamp="2026-11-21T06:07:12Z" TransactionIdentifier="TX-5f1c2a" CorrelationID="corr-0001"' +
        ' xmlns:xs="http://www.w3.org/2001/XMLSchema">' +
        '<Document/><Success/><Response><SecurePayments><SecurePayment>' +
        '<PayerAuth><PARes>v1.SPM-7Q2K9XW4MB.Y.1795240320000.q8Vn2kz0</PARes></PayerAuth>' +
        '<Reference><SPM_TxnReference>SPM-7Q2K9XW4MB</SPM_TxnReference><OriginalTransactionID>TX-5f1c2a</OriginalTransactionID></Reference>' +
        '<Status>Y</Status></SecurePayment></SecurePayments></Response></CustomerInputRS>',
    );
  });

  it('round-trips a bare Response, warnings and the error form', () => {
    const bare: CustomerInputRs = {
      target: 'Test',
      version: '17.2',
      kind: 'success',
      securePayments: [],
      warnings: [{ text: 'nothing to say' }],
    };
    expect(rsRoundTrip(bare).back).toStrictEqual(bare);
    const err: CustomerInputRs = {
      target: 'Test',
      version: '17.2',
      kind: 'error',
      errors: [{ code: '781', shortText: 'Authentication declined', status: 'Complete', text: 'declined' }],
    };
    const { xml, back } = rsRoundTrip(err);
    expect(back).toStrictEqual(err);
    expect(xml).toMatch(
      /<Document\/><Errors><Error [^>]*Code="781"[^>]*>declined<\/Error><\/Errors><\/CustomerInputRS>$/,
    );
  });

  it('refuses a success form without Response', () => {
    const xml = encodeCustomerInputRs(customerInputRs).replace(/<Response>.*<\/Response>/, '');
    const e = decodeError(() => decodeCustomerInputRs(xml));
    expect([e.code, e.path]).toEqual(['MISSING', '/CustomerInputRS/Response']);
  });
});

describe('OrderCreateRQ with a pre-authenticated card (3-D Secure result)', () => {
  it('writes the result in the SecurePaymentAlert where 17.2 has room for it, valid, and reads it back', () => {
    const xml = encodeOrderCreateRq(preAuthenticatedOrderCreateRq);
    expectValidXsd(xml, 'OrderCreateRQ');
    expect(decodeOrderCreateRq(xml)).toStrictEqual(preAuthenticatedOrderCreateRq);
    expect(xml).toContain(
      '<SecurePaymentAlert><Reference><ACS_TxnReference>8a880dc0-d2d2-4067-bcb1-b08d1690b26e</ACS_TxnReference></Reference>' +
        '<URLs><FailURL>https://agency.example/booking/fail?session=9f2&amp;step=3ds</FailURL>',
    );
    expect(xml).toContain(
      '</CustomerDevice></Details><ProcessingInfos><ProcessingInfo><CAVV>AAABBJg0VhI0VniQEjRWAAAAAAA=</CAVV>' +
        '<CustomerAuthStatus>Y</CustomerAuthStatus><ECI>05</ECI></ProcessingInfo></ProcessingInfos></SecurePaymentAlert>',
    );
  });

  it('decodes an incomplete result as it comes (each part is optional in the XSD; the airline asks for the ECI)', () => {
    const xml = encodeOrderCreateRq(preAuthenticatedOrderCreateRq)
      .replace(/<ECI>05<\/ECI>/, '')
      .replace(/<Reference>.*<\/Reference>/, '');
    expectValidXsd(xml, 'OrderCreateRQ');
    expect(decodeOrderCreateRq(xml).securePayment?.authentication).toStrictEqual({
      cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=',
      status: 'Y',
    });
  });
});
