import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeError, xsdRoundTrip } from '../../test/support/ndc';
import { decodeAirShoppingRs, encodeAirShoppingRs } from './air-shopping-rs.codec';
import { airShoppingErrorRs, calendarRoundTripRs, dayRoundTripRs } from './fixtures/air-shopping-rs.fixtures';
import type { AirShoppingRs } from './ndc.model';

const roundTrip = (msg: AirShoppingRs) => xsdRoundTrip(msg, encodeAirShoppingRs, decodeAirShoppingRs, 'AirShoppingRS');

const decodeRsError = (xml: string) => decodeError(() => decodeAirShoppingRs(xml));

describe('AirShoppingRS codec', () => {
  it('round-trips the day search (round trip, ADT ADT CHD INF, every DataList, metadata)', () => {
    const { xml, back } = roundTrip(dayRoundTripRs);
    expect(back).toEqual(dayRoundTripRs);
    // spot checks on the wire form
    expect(xml).toContain('<Document/><Success/>');
    expect(xml).toContain('<ShoppingResponseID><ResponseID>SRID-7f3e9a51-0c2d</ResponseID></ShoppingResponseID>');
    expect(xml).toContain('<CabinTypeCode xsi:type="xs:string">M</CabinTypeCode>');
    expect(xml).toContain('<SegmentRefs ON_Point="JFK" OFF_Point="DUB">SEG__JFK_DUB_0160</SegmentRefs>');
    expect(xml).toContain('<FlightRef ODRef="OD__LHR_JFK" PriceClassRef="PC__LIGHT">FL__LHR_JFK_1</FlightRef>');
    expect(xml).toContain('<PassengerRefs>PAX__ADT01 PAX__ADT02</PassengerRefs>');
    expect(xml).toContain(
      '<ServiceDefinitionRef SegmentRefs="SEG__JFK_DUB_0160 SEG__DUB_LHR_0161">SD__BNDL_PLUS-1</ServiceDefinitionRef>',
    );
    expect(xml).toContain('<ns2:City><ns2:Code>LON</ns2:Code><ns2:Name>London</ns2:Name></ns2:City>');
    expect(xml).toContain('<Text>Hot meal &amp; drink</Text>');
  });

  it('round-trips the calendar search with JOURNEYS metadata', () => {
    const { xml, back } = roundTrip(calendarRoundTripRs);
    expect(back).toEqual(calendarRoundTripRs);
    expect(xml).not.toContain('ShoppingResponseID');
    expect(xml).toContain(
      '<PriceCalendar><PriceCalendarDate OriginDestinationReference="OD__LHR_JFK">2027-03-08</PriceCalendarDate>' +
        '<TotalPrice Code="GBP" refs="JRN__OUT_DIRECT">1712.40</TotalPrice></PriceCalendar>',
    );
    expect(xml).toContain(
      '<FlightMetadata MetadataKey="JOURNEYS"><AugmentationPoint><AugPoint Key="JRN__OUT_DIRECT">' +
        '<ns2:Journey><ns2:Transfer>false</ns2:Transfer></ns2:Journey></AugPoint>',
    );
  });

  // The day golden file was written by the encoder before offers moved to detached subtrees
  // (addDetached in xml.ts, for encode speed): the bytes must not change.
  it('encodes the day search exactly as the golden file, and decodes the indented golden file', () => {
    const golden = readFileSync(join(__dirname, 'fixtures', 'air-shopping-rs.day.golden.xml'), 'utf8');
    expect(encodeAirShoppingRs(dayRoundTripRs)).toBe(golden.trim().replace(/>\n</g, '><'));
    expect(decodeAirShoppingRs(golden)).toEqual(dayRoundTripRs);
  });

  it('encodes the calendar search exactly as the golden file, and decodes the indented golden file', () => {
    const golden = readFileSync(join(__dirname, 'fixtures', 'air-shopping-rs.calendar.golden.xml'), 'utf8');
    expect(encodeAirShoppingRs(calendarRoundTripRs)).toBe(golden.trim().replace(/>\n</g, '><'));
    expect(decodeAirShoppingRs(golden)).toEqual(calendarRoundTripRs);
  });

  it('round-trips the error form (Errors directly under the root, no Document)', () => {
    const { xml, back } = roundTrip(airShoppingErrorRs);
    expect(back).toEqual(airShoppingErrorRs);
    expect(xml).not.toContain('Document');
    expect(xml).toMatch(
      /<Errors><Error [^>]*Code="911"[^>]*>No flights found for LHR-JFK on 2027-03-10<\/Error><\/Errors><\/AirShoppingRS>$/,
    );
  });

  it('decodes repeatable elements as arrays even when single', () => {
    const oneOffer: AirShoppingRs = {
      ...(dayRoundTripRs as Extract<AirShoppingRs, { kind: 'day' }>),
      airlineOffers: [
        { offers: [(dayRoundTripRs as Extract<AirShoppingRs, { kind: 'day' }>).airlineOffers[0].offers[0]] },
      ],
    };
    const back = decodeAirShoppingRs(encodeAirShoppingRs(oneOffer));
    if (back.kind !== 'day') throw new Error('expected day form');
    expect(Array.isArray(back.airlineOffers)).toBe(true);
    expect(Array.isArray(back.airlineOffers[0].offers)).toBe(true);
    expect(back.airlineOffers[0].offers).toHaveLength(1);
    expect(back.airlineOffers[0].offers[0].flightsOverview).toHaveLength(1);
    expect(back.airlineOffers[0].offers[0].offerItems[2].services).toHaveLength(1);
    expect(back.airlineOffers[0].offers[0].offerItems[2].fareDetails[0].passengerRefs).toEqual(['PAX__INF01']);
    expect(back.dataLists.flights?.[0].segmentRefs).toEqual(['SEG__LHR_JFK_0101']);
  });

  /** The calendar RS rewritten with prefix `n:` for NDC and `x:` for the extension namespace. */
  function prefixed(): string {
    return encodeAirShoppingRs(calendarRoundTripRs)
      .replace(/<(\/?)(?![/?]|ns2:)/g, '<$1n:')
      .replace('xmlns="http://www.iata.org/IATA/EDIST/2017.2"', 'xmlns:n="http://www.iata.org/IATA/EDIST/2017.2"')
      .replace(/ns2:/g, 'x:')
      .replace('xmlns:ns2=', 'xmlns:x=')
      .replace(
        '<x:Transfer>true</x:Transfer>',
        '<x:Transfer>true</x:Transfer><o:Extra xmlns:o="urn:other">1</o:Extra>',
      );
  }

  it('accepts any prefix for the NDC and extension namespaces and ignores unknown extension content', () => {
    const xml = prefixed().replace('<n:Document/><n:Success/>', '<n:Document></n:Document><n:Success></n:Success>');
    expect(xml).toContain('<n:AirShoppingRS');
    expect(decodeAirShoppingRs(xml)).toEqual(calendarRoundTripRs);
  });

  // Regression: fast-xml-parser 5.12.1 applies transformTagName twice to a self-closing tag, and
  // the prefix resolution is not idempotent, so `<n:Success/>` became a foreign element and the
  // decoder failed with MISSING /AirShoppingRS/Success.
  it('accepts prefixed self-closing elements such as <n:Success/>', () => {
    const xml = prefixed();
    expect(xml).toContain('<n:Document/><n:Success/>');
    expect(decodeAirShoppingRs(xml)).toEqual(calendarRoundTripRs);
  });

  it('names the path of missing required data', () => {
    const xml = encodeAirShoppingRs(dayRoundTripRs).replace('<ResponseID>SRID-7f3e9a51-0c2d</ResponseID>', '');
    const e = decodeRsError(xml);
    expect(e.code).toBe('MISSING');
    expect(e.path).toBe('/AirShoppingRS/ShoppingResponseID/ResponseID');

    // RBD is optional in the XSD; the CabinType of a FareBasis is not.
    const noCabin = encodeAirShoppingRs(dayRoundTripRs).replace(/<CabinType>.*?<\/CabinType>/, '');
    const e2 = decodeRsError(noCabin);
    expect(e2.code).toBe('MISSING');
    expect(e2.path).toBe(
      '/AirShoppingRS/OffersGroup/AirlineOffers[1]/Offer[1]/OfferItem[1]/FareDetail[1]/FareComponent[1]/FareBasis/CabinType',
    );
    const noRbd = decodeAirShoppingRs(encodeAirShoppingRs(dayRoundTripRs).replace('<RBD>Q</RBD>', ''));
    if (noRbd.kind !== 'day') throw new Error('expected the day form');
    expect(noRbd.airlineOffers[0].offers[0].offerItems[0].fareDetails[0].fareComponents[0].rbd).toBeUndefined();
  });

  it('refuses an amount that is not a decimal', () => {
    const xml = encodeAirShoppingRs(calendarRoundTripRs).replace('>1712.40<', '>1,712.40<');
    const e = decodeRsError(xml);
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.path).toBe('/AirShoppingRS/OffersGroup/AirlineOffers[1]/PriceCalendar[1]/TotalPrice');
  });

  it('refuses the wrong root', () => {
    const xml = encodeAirShoppingRs(airShoppingErrorRs).replace(/AirShoppingRS/g, 'OfferPriceRS');
    expect(decodeRsError(xml).code).toBe('WRONG_ROOT');
  });

  it('refuses models the schema cannot carry', () => {
    const day = dayRoundTripRs as Extract<AirShoppingRs, { kind: 'day' }>;
    const svc = day.airlineOffers[0].offers[0].offerItems[0].services[0];
    const bad: AirShoppingRs = {
      ...day,
      airlineOffers: [
        {
          offers: [
            {
              ...day.airlineOffers[0].offers[0],
              offerItems: [
                { ...day.airlineOffers[0].offers[0].offerItems[0], services: [{ ...svc, flightRefs: undefined }] },
              ],
            },
          ],
        },
      ],
    };
    expect(() => encodeAirShoppingRs(bad)).toThrow('exactly one of flightRefs, serviceDefinitionRef and selectedSeat');
    expect(() => encodeAirShoppingRs({ ...airShoppingErrorRs, warnings: [{ text: 'x' }] })).toThrow(
      'cannot carry warnings',
    );
  });
});
