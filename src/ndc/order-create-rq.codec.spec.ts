import { expectValidXsd } from '../../test/support/xsd';
import { decodeError } from '../../test/support/ndc';
import {
  aLaCarteOrderCreateRq,
  familyOrderCreateRq,
  holdOrderCreateRq,
  minimalOrderCreateRq,
} from './fixtures/order-create-rq.fixtures';
import type { OrderCreateRq } from './ndc.model';
import { requireElement, requireMoney } from './require-element';
import { decodeOrderCreateRq, encodeOrderCreateRq } from './order-create-rq.codec';

describe('OrderCreateRQ codec', () => {
  it.each<[string, OrderCreateRq]>([
    ['family with secure-payment alert, voucher, Individuals, e-mail and phone contact', familyOrderCreateRq],
    ['minimal single adult', minimalOrderCreateRq],
    ['a priced offer and two à-la-carte offers of other responses (bag, seat)', aLaCarteOrderCreateRq],
    ['a hold: no Payments', holdOrderCreateRq],
  ])('%s: encodes schema-valid XML that decodes to the same model', (_name, model) => {
    const xml = encodeOrderCreateRq(model);
    expectValidXsd(xml, 'OrderCreateRQ');
    expect(decodeOrderCreateRq(xml)).toStrictEqual(model);
  });

  it('writes the alert, offer, payment and lists where NDC 17.2 puts them', () => {
    const xml = encodeOrderCreateRq(familyOrderCreateRq);
    expect(xml).toContain(
      '<OrderCreateParameters><Alerts><Alert><SecurePaymentAlert><URLs>' +
        '<FailURL>https://agency.example/booking/fail?session=9f2&amp;step=3ds</FailURL>' +
        '<TermURL>https://agency.example/booking/done?session=9f2</TermURL></URLs>' +
        '<Details><CustomerDevice><IP_Address>203.0.113.17</IP_Address><BrowserUserAgentHeader>',
    );
    expect(xml).toContain(
      '<Query><Order><Offer OfferID="OFFER__PRICED_1" Owner="XS" ResponseID="PR-20261121-0003">' +
        '<TotalOfferPrice Code="GBP">1873.40</TotalOfferPrice><OfferItem OfferItemID="OI__OUT_ADT01">',
    );
    expect(xml).toContain(
      '<Payments><Payment><Type>CC</Type><Method><Voucher><Number>tok_7d1e0c5b9a2f4e61</Number></Voucher></Method>' +
        '<Amount Code="EUR">2180.05</Amount></Payment></Payments>',
    );
    expect(xml).toContain(
      '<Passenger PassengerID="PAX__ADT01"><PTC>ADT</PTC><Individual><Birthdate>1984-06-02</Birthdate><NameTitle>MR</NameTitle>' +
        '<GivenName>John</GivenName><GivenName>Paul</GivenName><Surname>Smith</Surname></Individual><ContactInfoRef>CTC__1</ContactInfoRef></Passenger>',
    );
    expect(xml).toContain(
      '<ContactList><ContactInformation ContactID="CTC__1">' +
        '<ContactProvided><EmailAddress><EmailAddressValue>john.smith@example.com</EmailAddressValue></EmailAddress></ContactProvided>' +
        '<ContactProvided><Phone><CountryDialingCode>44</CountryDialingCode><PhoneNumber>7700900123</PhoneNumber></Phone></ContactProvided>' +
        '</ContactInformation></ContactList>',
    );
  });

  it('writes a hold without a Payments element, and reads one without it as payments []', () => {
    const xml = encodeOrderCreateRq(holdOrderCreateRq);
    expect(xml).not.toContain('<Payments');
    expect(xml).toContain('</OfferItem></Offer></Order><DataLists><PassengerList>');
    expect(decodeOrderCreateRq(xml).payments).toStrictEqual([]);
  });

  it('keeps amounts exact as written (no float rounding or trailing-zero loss)', () => {
    const model: OrderCreateRq = {
      ...minimalOrderCreateRq,
      offers: [
        {
          ...requireElement(minimalOrderCreateRq.offers[0], 'offer'),
          totalOfferPrice: { value: '90071992547409.93', currency: 'GBP' },
        },
      ],
      payments: [{ type: 'CC', voucherNumber: 'tok_1', amount: { value: '0.10', currency: 'EUR' } }],
    };
    const back = decodeOrderCreateRq(encodeOrderCreateRq(model));
    expect(back.offers[0].totalOfferPrice).toStrictEqual({ value: '90071992547409.93', currency: 'GBP' });
    expect(back.payments[0].amount).toStrictEqual({ value: '0.10', currency: 'EUR' });
  });

  it('refuses an amount that is not a decimal, naming it', () => {
    const xml = encodeOrderCreateRq(minimalOrderCreateRq).replace(
      '<Amount Code="GBP">99.00</Amount>',
      '<Amount Code="GBP">99,00</Amount>',
    );
    const err = decodeError(() => decodeOrderCreateRq(xml));
    expect(err.code).toBe('INVALID_VALUE');
    expect(err.path).toBe('/OrderCreateRQ/Query/Payments/Payment[1]/Amount');
  });

  it('decodes a Voucher without Number (optional in the XSD); using it names the element', () => {
    const xml = encodeOrderCreateRq(familyOrderCreateRq).replace('<Number>tok_7d1e0c5b9a2f4e61</Number>', '');
    expectValidXsd(xml, 'OrderCreateRQ');
    const payment = decodeOrderCreateRq(xml).payments[0];
    expect(payment).toStrictEqual({ type: 'CC', amount: { value: '2180.05', currency: 'EUR' } });
    expect(() => requireElement(payment.voucherNumber, 'Query/Payments/Payment/Method/Voucher/Number')).toThrow(
      expect.objectContaining({
        code: 'NDC_MISSING_ELEMENT',
        element: 'Query/Payments/Payment/Method/Voucher/Number',
      }),
    );
  });

  it('decodes an amount without Code: the currency of the CurrencyMetadatas, else none', () => {
    const xml = encodeOrderCreateRq(familyOrderCreateRq)
      .replace('<TotalOfferPrice Code="GBP">', '<TotalOfferPrice>')
      .replace('<Amount Code="EUR">', '<Amount>');
    const bare = decodeOrderCreateRq(xml);
    expect(bare.offers[0].totalOfferPrice).toStrictEqual({ value: '1873.40' });
    expect(bare.payments[0].amount).toStrictEqual({ value: '2180.05' });
    expect(() => requireMoney(bare.payments[0].amount, 'Query/Payments/Payment/Amount')).toThrow(
      'the message has no Query/Payments/Payment/Amount/@Code, which this operation needs',
    );
    const withMetadata = xml.replace(
      '</Query>',
      '<Metadata><Other><OtherMetadata><CurrencyMetadatas><CurrencyMetadata MetadataKey="GBP"><Decimals>2</Decimals>' +
        '</CurrencyMetadata></CurrencyMetadatas></OtherMetadata></Other></Metadata></Query>',
    );
    expectValidXsd(withMetadata, 'OrderCreateRQ');
    const rq = decodeOrderCreateRq(withMetadata);
    expect(rq.offers[0].totalOfferPrice).toStrictEqual({ value: '1873.40', currency: 'GBP' });
    expect(rq.payments[0].amount).toStrictEqual({ value: '2180.05', currency: 'GBP' });
  });

  it('decodes every Offer of the order, in order (the airline decides whether it serves them)', () => {
    const xml = encodeOrderCreateRq(minimalOrderCreateRq).replace(
      '</Offer></Order>',
      '</Offer><Offer OfferID="OFFER__2" Owner="XS" ResponseID="PR-1"><OfferItem OfferItemID="OI__2"><PassengerRefs>PAX__ADT01</PassengerRefs></OfferItem></Offer></Order>',
    );
    expectValidXsd(xml, 'OrderCreateRQ');
    expect(decodeOrderCreateRq(xml).offers.map((o) => [o.offerId, o.offerItems])).toStrictEqual([
      ['OFFER__1', [{ offerItemId: 'OI__1', passengerRefs: ['PAX__ADT01'] }]],
      ['OFFER__2', [{ offerItemId: 'OI__2', passengerRefs: ['PAX__ADT01'] }]],
    ]);
  });

  it('decodes a secure-payment alert with any of its parts left out (each optional in the XSD)', () => {
    const full = encodeOrderCreateRq(familyOrderCreateRq);
    const noDeviceIp = full.replace(/<IP_Address>[^<]*<\/IP_Address>/, '');
    const urlsOnly = full.replace(/<Details>.*<\/Details>/, '');
    const bare = full.replace(/<URLs>.*<\/Details>/, '');
    for (const xml of [noDeviceIp, urlsOnly, bare]) expectValidXsd(xml, 'OrderCreateRQ');
    const { ipAddress: _ip, ...withoutIp } = familyOrderCreateRq.securePayment!;
    expect(decodeOrderCreateRq(noDeviceIp).securePayment).toStrictEqual(withoutIp);
    expect(decodeOrderCreateRq(urlsOnly).securePayment).toStrictEqual({
      failUrl: 'https://agency.example/booking/fail?session=9f2&step=3ds',
      termUrl: 'https://agency.example/booking/done?session=9f2',
    });
    expect(decodeOrderCreateRq(bare).securePayment).toStrictEqual({});
  });

  it('is not fooled by an OrderRetrieveRQ', () => {
    const xml = encodeOrderCreateRq(minimalOrderCreateRq).replace(/OrderCreateRQ/g, 'OrderRetrieveRQ');
    const err = decodeError(() => decodeOrderCreateRq(xml));
    expect(err.code).toBe('WRONG_ROOT');
    expect(err.message).toBe('expected root OrderCreateRQ, got OrderRetrieveRQ at /OrderRetrieveRQ');
  });
});
