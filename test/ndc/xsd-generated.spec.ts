/**
 * Every message type, as the XSD itself allows it: the minimal and the wide instance derived
 * from the schema (test/ndc/xsd-instance.ts), in each form a choice allows that matters to us,
 * is valid for xmllint and decodes.
 */
import * as ndc from '../../src/ndc';
import { validateXsd } from '../support/xsd';
import { sampleForPattern, THIRD_PARTY_NS, xsdInstance, type InstanceMode } from './xsd-instance';

type Decoder = (xml: string) => unknown;

const DECODERS: Record<string, Decoder> = {
  AirShoppingRQ: (x) => ndc.decodeAirShoppingRq(x),
  AirShoppingRS: (x) => ndc.decodeAirShoppingRs(x),
  OfferPriceRQ: (x) => ndc.decodeOfferPriceRq(x),
  OfferPriceRS: (x) => ndc.decodeOfferPriceRs(x),
  OrderCreateRQ: (x) => ndc.decodeOrderCreateRq(x),
  OrderRetrieveRQ: (x) => ndc.decodeOrderRetrieveRq(x),
  OrderViewRS: (x) => ndc.decodeOrderViewRs(x),
  OrderCancelRQ: (x) => ndc.decodeOrderCancelRq(x),
  OrderCancelRS: (x) => ndc.decodeOrderCancelRs(x),
  OrderReshopRQ: (x) => ndc.decodeOrderReshopRq(x),
  OrderReshopRS: (x) => ndc.decodeOrderReshopRs(x),
  OrderChangeRQ: (x) => ndc.decodeOrderChangeRq(x),
  OrderChangeNotif: (x) => ndc.decodeOrderChangeNotif(x),
  ServiceListRQ: (x) => ndc.decodeServiceListRq(x),
  SeatAvailabilityRQ: (x) => ndc.decodeSeatAvailabilityRq(x),
};

/** The forms generated per message: the shortest branches, and the branches our own messages take. */
const FORMS: Record<string, Record<string, string[]>> = {
  AirShoppingRQ: {
    shortest: [],
    agency: ['TravelAgencySender', 'OriginDestinations'],
    calendar: ['TravelAgencySender', 'Affinity', 'AirportCityDeparture', 'AirportCityArrival'],
  },
  AirShoppingRS: { error: [], success: ['Success'] },
  OfferPriceRQ: { shortest: [], agency: ['TravelAgencySender'] },
  OfferPriceRS: { error: [], success: ['Success'] },
  OrderCreateRQ: { shortest: [], agency: ['TravelAgencySender', 'Offer'] },
  OrderRetrieveRQ: { shortest: [], agency: ['TravelAgencySender', 'OrderID'] },
  OrderViewRS: { error: [], success: ['Success'] },
  OrderCancelRQ: { shortest: [], agency: ['TravelAgencySender'] },
  OrderCancelRS: { error: [], success: ['Success'] },
  OrderReshopRQ: { shortest: [], agency: ['TravelAgencySender', 'OrderServicing', 'Add', 'OriginDestinations'] },
  OrderReshopRS: { error: [], success: ['Success', 'ReshopOffers'] },
  OrderChangeRQ: { shortest: [], agency: ['TravelAgencySender', 'OrderServicing', 'Offer', 'Voucher'] },
  OrderChangeNotif: { shortest: [], airline: ['ORA_Sender', 'TravelAgencyRecipient', 'Amendments'] },
  ServiceListRQ: { shortest: [], order: ['TravelAgencySender', 'OrderID'] },
  SeatAvailabilityRQ: { shortest: [], order: ['TravelAgencySender', 'Order'] },
};

/**
 * Schema-valid shapes the model still cannot hold, each failing with this exact error
 * (`'<root> <mode> <form>'` to the `path` of the `MISSING` error). None is left: every generated
 * minimal and wide instance decodes, item prices without `BaseAmount` or taxes, or in award,
 * combination or `Equivalent` form, and `FlightRef` without `@ODRef` included.
 */
const KNOWN_GAPS: Record<string, string> = {};

const cases: [string, InstanceMode, string, string[]][] = [];
for (const [root, forms] of Object.entries(FORMS)) {
  for (const mode of ['minimal', 'wide'] as const)
    for (const [form, prefer] of Object.entries(forms)) cases.push([root, mode, form, prefer]);
}

describe('instances derived from the XSDs', () => {
  it.each(cases)('%s %s (%s) validates and decodes', (root, mode, form, prefer) => {
    const xml = xsdInstance(root, mode, prefer);
    const v = validateXsd(xml, root);
    if (!v.valid) throw new Error(`generated ${root} ${mode} ${form} is not valid:\n${v.errors.join('\n')}\n${xml}`);
    if (mode === 'wide') {
      // The NDC namespace is bound again on inner elements, under fresh prefixes.
      expect(xml).toMatch(new RegExp(`<p\\d+:\\w+ xmlns:p\\d+="${ndc.NDC_NS}"`));
    }
    const gap = KNOWN_GAPS[`${root} ${mode} ${form}`];
    if (gap !== undefined) {
      expect(() => DECODERS[root](xml)).toThrow(expect.objectContaining({ code: 'MISSING', path: gap }));
      return;
    }
    let decoded: unknown;
    try {
      decoded = DECODERS[root](xml);
    } catch (e) {
      throw new Error(`${root} ${mode} ${form} does not decode: ${(e as Error).message}\n${xml}`);
    }
    expect(decoded).toHaveProperty('version', '17.2');
    if (form === 'error') expect(decoded).toHaveProperty('kind', 'error');
    if (form === 'success') expect((decoded as { kind: string }).kind).not.toBe('error');
  });
});

describe('amounts of generated instances (no optional Code)', () => {
  it('OrderCreateRQ: TotalOfferPrice and payment Amount without Code decode without currency', () => {
    const xml = xsdInstance('OrderCreateRQ', 'wide', FORMS.OrderCreateRQ.agency);
    expect(xml).toMatch(/<p\d+:TotalOfferPrice xmlns:p\d+="[^"]+">100\.00</);
    const rq = ndc.decodeOrderCreateRq(xml);
    expect(rq.offers.map((o) => o.totalOfferPrice)).toStrictEqual([{ value: '100.00' }]);
    expect(rq.payments.map((p) => p.amount)).toStrictEqual([{ value: '100.00' }]);
  });

  it('OfferPriceRS: an item with only its TotalAmount decodes without base and taxes', () => {
    const rs = ndc.decodeOfferPriceRs(xsdInstance('OfferPriceRS', 'minimal', ['Success']));
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.pricedOffer.offerItems[0].priceDetail).toStrictEqual({ total: { value: '100.00' } });
  });

  it('OfferPriceRS: a FlightRef without ODRef and a FareDetail without TotalAmount decode', () => {
    const rs = ndc.decodeOfferPriceRs(xsdInstance('OfferPriceRS', 'wide', ['Success']));
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.pricedOffer.flightsOverview[0]).toStrictEqual({ flightKey: 'REF1' });
    expect(rs.pricedOffer.offerItems[0].fareDetails[0]).toStrictEqual({
      passengerRefs: [],
      base: { value: '80.00' },
      fareComponents: [],
    });
  });

  it('OrderViewRS: an OrderItem BaseAmount without Code decodes without currency', () => {
    const rs = ndc.decodeOrderViewRs(xsdInstance('OrderViewRS', 'minimal', ['Success']));
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.orders[0].orderItems[0].base).toStrictEqual({ value: '80.00' });
  });
});

describe('the instance generator', () => {
  it('writes strings matching XSD patterns', () => {
    for (const p of [
      '[A-Z]{3}',
      '[0-9a-zA-Z]{1,6}',
      '([A-Z]{2}|[0-9][A-Z])[0-9]{1,4}',
      '\\d{2}-[^-]+',
      'P[0-9]+D',
      '[0-9a-zA-Z]{1,70}\n',
    ]) {
      expect(sampleForPattern(p)).toMatch(new RegExp(`^(?:${p})$`));
    }
  });

  it('fills xs:any wildcards of the wide variant with foreign content (AugPoint)', () => {
    const xml = xsdInstance('OfferPriceRQ', 'wide', ['TravelAgencySender']);
    expect(xml).toContain(`xmlns:tp="${THIRD_PARTY_NS}"`);
    expect(validateXsd(xml, 'OfferPriceRQ').valid).toBe(true);
  });

  it('derives the minimal instance exactly: required elements and attributes only', () => {
    expect(xsdInstance('OrderRetrieveRQ', 'minimal', ['TravelAgencySender'])).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><OrderRetrieveRQ xmlns="${ndc.NDC_NS}" Version="17.2"><Document/>` +
        '<Party><Sender><TravelAgencySender><AgencyID>AGENCY1</AgencyID></TravelAgencySender></Sender></Party>' +
        '<Query><Filters/></Query></OrderRetrieveRQ>',
    );
  });
});
