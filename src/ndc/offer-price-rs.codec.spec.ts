import { expectValidXsd } from '../../test/support/xsd';
import { xsdRoundTrip } from '../../test/support/ndc';
import { offerPriceErrorRs, offerPriceRs, offerPriceWithSurchargeRs } from './fixtures/offer-price-rs.fixtures';
import { NdcDecodeError } from './ndc-decode-error';
import type { OfferPriceRs } from './ndc.model';
import { decodeOfferPriceRs, encodeOfferPriceRs } from './offer-price-rs.codec';

const roundTrip = (msg: OfferPriceRs) => xsdRoundTrip(msg, encodeOfferPriceRs, decodeOfferPriceRs, 'OfferPriceRS');

describe('OfferPriceRS codec', () => {
  it('round-trips a final pricing: one PricedOffer, one item per passenger and direction', () => {
    const { xml, back } = roundTrip(offerPriceRs);
    expect(back).toEqual(offerPriceRs);
    if (back.kind !== 'success') throw new Error('expected success');
    expect(back.pricedOffer.offerItems).toHaveLength(8);
    expect(back.pricedOffer.flightsOverview.map((f) => f.flightKey)).toEqual(['FL__LHR_JFK_1', 'FL__JFK_LHR_1']);
    expect(xml).toContain(
      '<TotalPrice><DetailCurrencyPrice><Total Code="GBP">2925.70</Total><Taxes><Total Code="GBP">816.70</Total></Taxes></DetailCurrencyPrice></TotalPrice>',
    );
    expect(xml).toContain('<ClassOfService><Code>Q</Code></ClassOfService>');
  });

  it('round-trips the CCF2 card surcharge item (ServiceDefinitionRef SD__CCF2, separate base, zero taxes)', () => {
    const { xml, back } = roundTrip(offerPriceWithSurchargeRs);
    expect(back).toEqual(offerPriceWithSurchargeRs);
    expect(xml).toContain(
      '<OfferItem OfferItemID="PO__SRID-7f3e9a51-1-CCF2"><TotalPriceDetail><TotalAmount><DetailCurrencyPrice>' +
        '<Total Code="GBP">58.51</Total><Taxes><Total Code="GBP">0.00</Total></Taxes></DetailCurrencyPrice></TotalAmount>' +
        '<BaseAmount Code="GBP">58.51</BaseAmount></TotalPriceDetail>' +
        '<Service ServiceID="SERVICE__CCF2"><PassengerRefs>PAX__ADT01</PassengerRefs><ServiceDefinitionRef>SD__CCF2</ServiceDefinitionRef></Service></OfferItem>',
    );
    expect(xml).toContain('<Total Code="GBP">2984.21</Total>');
  });

  it('round-trips the error form', () => {
    const { xml, back } = roundTrip(offerPriceErrorRs);
    expect(back).toEqual(offerPriceErrorRs);
    expect(xml).not.toContain('<Document');
  });

  it('accepts item totals in the shopping style (SimpleCurrencyPrice and Taxes/Total)', () => {
    const xml = encodeOfferPriceRs(offerPriceRs).replace(
      /<TotalPriceDetail><TotalAmount><DetailCurrencyPrice><Total Code="GBP">([\d.]+)<\/Total><Taxes><Total Code="GBP">([\d.]+)<\/Total><\/Taxes><\/DetailCurrencyPrice><\/TotalAmount><BaseAmount Code="GBP">([\d.]+)<\/BaseAmount>/g,
      '<TotalPriceDetail><TotalAmount><SimpleCurrencyPrice Code="GBP">$1</SimpleCurrencyPrice></TotalAmount><BaseAmount Code="GBP">$3</BaseAmount><Taxes><Total Code="GBP">$2</Total></Taxes>',
    );
    expect(xml).toContain('<SimpleCurrencyPrice Code="GBP">535.40</SimpleCurrencyPrice>');
    expectValidXsd(xml, 'OfferPriceRS');
    expect(decodeOfferPriceRs(xml)).toEqual(offerPriceRs);
  });

  it('round-trips items and fare details that carry only some amounts (what the XSD leaves optional), and a SelectedSeat', () => {
    if (offerPriceRs.kind !== 'success') throw new Error('fixture is a success');
    const [first, ...rest] = offerPriceRs.pricedOffer.offerItems;
    const fd = first.fareDetails[0];
    const sparse: OfferPriceRs = {
      ...offerPriceRs,
      pricedOffer: {
        ...offerPriceRs.pricedOffer,
        flightsOverview: offerPriceRs.pricedOffer.flightsOverview.map(({ flightKey }) => ({ flightKey })),
        offerItems: [
          {
            ...first,
            priceDetail: { total: first.priceDetail.total },
            services: [
              ...first.services,
              {
                serviceId: 'SEAT1',
                passengerRefs: first.services[0].passengerRefs,
                selectedSeat: {
                  row: 12,
                  column: 'C',
                  segmentRef: 'SEG__XS101_20261201',
                  serviceDefinitionRef: 'SD__SEAT',
                },
              },
            ],
            fareDetails: [
              {
                passengerRefs: fd.passengerRefs,
                base: fd.base,
                taxes: fd.taxes,
                fareComponents: [{ priceClassRef: fd.fareComponents[0].priceClassRef }, { rbd: 'Q' }],
              },
            ],
          },
          { ...rest[0], priceDetail: { total: rest[0].priceDetail.total, base: rest[0].priceDetail.base } },
          ...rest.slice(1),
        ],
      },
    };
    const { xml, back } = roundTrip(sparse);
    expect(back).toEqual(sparse);
    expect(xml).toContain(
      `<TotalPriceDetail><TotalAmount><DetailCurrencyPrice><Total Code="GBP">${first.priceDetail.total!.value}</Total>` +
        '</DetailCurrencyPrice></TotalAmount></TotalPriceDetail>',
    );
    expect(xml).toContain(
      `<Price><BaseAmount Code="GBP">${fd.base.value}</BaseAmount><Taxes><Total Code="GBP">${fd.taxes!.value}</Total></Taxes></Price>`,
    );
    expect(xml).toContain(
      `<FareComponent><PriceClassRef>${fd.fareComponents[0].priceClassRef}</PriceClassRef></FareComponent>` +
        '<FareComponent><FareBasis><RBD>Q</RBD><CabinType><CabinTypeCode xsi:type="xs:string"></CabinTypeCode>' +
        '<CabinTypeName xsi:type="xs:string"></CabinTypeName></CabinType></FareBasis></FareComponent>',
    );
  });

  it('refuses to write an item whose total has no money (award, combination, Equivalent)', () => {
    if (offerPriceRs.kind !== 'success') throw new Error('fixture is a success');
    const [first, ...rest] = offerPriceRs.pricedOffer.offerItems;
    const award: OfferPriceRs = {
      ...offerPriceRs,
      pricedOffer: {
        ...offerPriceRs.pricedOffer,
        offerItems: [{ ...first, priceDetail: { otherPrice: { form: 'Equivalent', equivalent: 'IT' } } }, ...rest],
      },
    };
    expect(() => encodeOfferPriceRs(award)).toThrow(`OfferItem ${first.offerItemId}: only a price with a money total`);
  });

  it('requires the PricedOffer on success', () => {
    const xml = encodeOfferPriceRs(offerPriceRs).replace(/<PricedOffer[\s\S]*<\/PricedOffer>/, '');
    expect(() => decodeOfferPriceRs(xml)).toThrow(NdcDecodeError);
    try {
      decodeOfferPriceRs(xml);
    } catch (e) {
      expect((e as NdcDecodeError).path).toBe('/OfferPriceRS/PricedOffer');
    }
  });
});
