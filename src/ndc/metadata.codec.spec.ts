import { expectValidXsd } from '../../test/support/xsd';
import { decodeAirShoppingRs, encodeAirShoppingRs } from './air-shopping-rs.codec';
import { calendarRoundTripRs } from './fixtures/air-shopping-rs.fixtures';
import { offerPriceRs } from './fixtures/offer-price-rs.fixtures';
import { otherMetadata } from './fixtures/rs-data.fixtures';
import type { OfferPriceRs } from './ndc.model';
import { decodeOfferPriceRs, encodeOfferPriceRs } from './offer-price-rs.codec';

type Ok = Extract<OfferPriceRs, { kind: 'success' }>;

describe('Metadata codec', () => {
  it('round-trips journeys, languages, countries, cities and payment forms in one OfferPriceRS, valid against the XSD', () => {
    const msg: Ok = {
      ...(offerPriceRs as Ok),
      metadata: {
        ...otherMetadata,
        journeys: [{ key: 'JRN__1', transfer: true }],
        paymentForms: [{ key: 'PFM__1', token: 'tok_test_meta_01' }],
      },
    };
    const xml = encodeOfferPriceRs(msg);
    expectValidXsd(xml, 'OfferPriceRS');
    expect(decodeOfferPriceRs(xml)).toEqual(msg);
    expect(xml).toContain(
      '<OtherMetadata><PaymentFormMetadatas><PaymentFormMetadata MetadataKey="PFM__1"><AugmentationPoint><AugPoint>' +
        '<ns2:Token><ns2:Number>tok_test_meta_01</ns2:Number></ns2:Token></AugPoint></AugmentationPoint></PaymentFormMetadata></PaymentFormMetadatas></OtherMetadata>',
    );
    expect(xml).toContain(
      '<CountryMetadata MetadataKey="CTRY_GB"><ICAO_Code>EG</ICAO_Code><Name>United Kingdom</Name></CountryMetadata>',
    );
    expect(xml).toContain(
      '<LanguageMetadata MetadataKey="LANG_EN"><Code_ISO>EN</Code_ISO><Code_NLS>en_GB</Code_NLS><Name>English</Name></LanguageMetadata>',
    );
  });

  it('merges several OtherMetadata groups of the same kind and ignores other flight metadata and foreign AugPoints', () => {
    const xml = encodeAirShoppingRs(calendarRoundTripRs)
      .replace(
        '</FlightMetadatas>',
        '<FlightMetadata MetadataKey="OTHER"><AugmentationPoint><AugPoint Key="X1"><ns2:Journey><ns2:Transfer>true</ns2:Transfer></ns2:Journey></AugPoint></AugmentationPoint></FlightMetadata></FlightMetadatas>',
      )
      .replace(
        '<AugPoint Key="JRN__RET_DIRECT">',
        '<AugPoint Key="FOREIGN"><f:Thing xmlns:f="urn:f">1</f:Thing></AugPoint><AugPoint Key="JRN__RET_DIRECT">',
      )
      .replace(
        '</Metadata>',
        '<Other><OtherMetadata><CountryMetadatas><CountryMetadata MetadataKey="C1"><ICAO_Code>EG</ICAO_Code><Name>UK</Name></CountryMetadata></CountryMetadatas></OtherMetadata>' +
          '<OtherMetadata><CountryMetadatas><CountryMetadata MetadataKey="C2"><ICAO_Code>LE</ICAO_Code><Name>Spain</Name></CountryMetadata></CountryMetadatas></OtherMetadata></Other></Metadata>',
      );
    expectValidXsd(xml, 'AirShoppingRS');
    const back = decodeAirShoppingRs(xml);
    if (back.kind !== 'calendar') throw new Error('expected calendar');
    expect(back.metadata.journeys).toEqual((calendarRoundTripRs as typeof back).metadata.journeys);
    expect(back.metadata.countries).toEqual([
      { key: 'C1', icaoCode: 'EG', name: 'UK' },
      { key: 'C2', icaoCode: 'LE', name: 'Spain' },
    ]);
  });

  it('refuses a Transfer that is not a boolean', () => {
    const xml = encodeAirShoppingRs(calendarRoundTripRs).replace(
      '<ns2:Transfer>true</ns2:Transfer>',
      '<ns2:Transfer>yes</ns2:Transfer>',
    );
    expect(() => decodeAirShoppingRs(xml)).toThrow(
      expect.objectContaining({
        code: 'INVALID_VALUE',
        path: '/AirShoppingRS/Metadata/Shopping/ShopMetadataGroup/Flight/FlightMetadatas/FlightMetadata[1]/AugmentationPoint/AugPoint[2]/ns2:Journey/ns2:Transfer',
      }),
    );
  });
});
