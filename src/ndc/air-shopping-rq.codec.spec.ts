import { expectValidXsd } from '../../test/support/xsd';
import { decodeError } from '../../test/support/ndc';
import { requireElement } from './require-element';
import { decodeAirShoppingRq, encodeAirShoppingRq } from './air-shopping-rq.codec';
import {
  calendarOneWayRq,
  calendarRoundTripRq,
  dayOneWayRq,
  dayRoundTripRq,
} from './fixtures/air-shopping-rq.fixtures';
import type { AirShoppingRq } from './ndc.model';
import { EXT_NS, NDC_NS } from './xml';

describe('AirShoppingRQ codec', () => {
  it.each<[string, AirShoppingRq]>([
    ['day round trip, ADT ADT CHD INF, promotion and corporate qualifier', dayRoundTripRq],
    ['day one way, minimal party', dayOneWayRq],
    ['calendar round trip, nil Participants', calendarRoundTripRq],
    ['calendar one way, no passengers', calendarOneWayRq],
  ])('%s: encodes schema-valid XML that decodes to the same model', (_name, model) => {
    const xml = encodeAirShoppingRq(model);
    expectValidXsd(xml, 'AirShoppingRQ');
    expect(decodeAirShoppingRq(xml)).toStrictEqual(model);
  });

  it('encodes the exact golden XML for a one-way day search', () => {
    expect(encodeAirShoppingRq(dayOneWayRq)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>' +
        `<AirShoppingRQ xmlns="${NDC_NS}" xmlns:ns2="${EXT_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` +
        ' Target="Test" Version="17.2" TimeStamp="2026-11-21T06:00:00Z">' +
        '<Document/>' +
        '<Party><Sender><TravelAgencySender><Name>Saga Travel</Name><AgencyID>SAGA01</AgencyID></TravelAgencySender></Sender>' +
        '<Recipient xsi:nil="true"/></Party>' +
        '<CoreQuery><OriginDestinations><OriginDestination>' +
        '<Departure><AirportCode>MAN</AirportCode><Date>2027-01-05</Date></Departure><Arrival><AirportCode>AMS</AirportCode></Arrival>' +
        '</OriginDestination></OriginDestinations></CoreQuery>' +
        '<DataLists><PassengerList><Passenger PassengerID="PAX__ADT01"><PTC>ADT</PTC></Passenger></PassengerList></DataLists>' +
        '</AirShoppingRQ>',
    );
  });

  it('writes the calendar window as LeadDatePeriod After/Before in days', () => {
    const xml = encodeAirShoppingRq(calendarRoundTripRq);
    expect(xml).toContain(
      '<AirportCityDeparture><LocationCode>LON</LocationCode><Date>2027-03-10</Date>' +
        '<LeadPricing><LeadDatePeriod After="P3D" Before="P3D"/></LeadPricing></AirportCityDeparture>' +
        '<AirportCityArrival><LocationCode>NYC</LocationCode></AirportCityArrival>',
    );
    expect(xml).toContain('<Participants xsi:nil="true"/>');
  });

  it('decodes liberally: other prefix, any child order, unknown extension and foreign content, optional parts absent', () => {
    const xml = `<?xml version="1.0"?>
      <n:AirShoppingRQ xmlns:n="${NDC_NS}" xmlns:x="${EXT_NS}" xmlns:f="urn:foreign" Version="17.2" TimeStamp="2026-11-21T06:00:00Z">
        <n:DataLists><n:PassengerList>
          <n:Passenger PassengerID="P1"><n:PTC>ADT</n:PTC><x:Loyalty>gold</x:Loyalty></n:Passenger>
        </n:PassengerList></n:DataLists>
        <n:Document/>
        <f:Trace>abc</f:Trace>
        <n:CoreQuery><n:OriginDestinations><n:OriginDestination>
          <n:Arrival><n:AirportCode>CDG</n:AirportCode></n:Arrival>
          <n:Departure><n:Date>2027-05-01</n:Date><n:AirportCode>LHR</n:AirportCode></n:Departure>
        </n:OriginDestination></n:OriginDestinations></n:CoreQuery>
        <n:Party><n:Sender><n:TravelAgencySender><n:Name>Agency</n:Name><n:AgencyID>AG</n:AgencyID></n:TravelAgencySender></n:Sender></n:Party>
      </n:AirShoppingRQ>`;
    expect(decodeAirShoppingRq(xml)).toStrictEqual({
      target: 'Production',
      version: '17.2',
      timeStamp: '2026-11-21T06:00:00Z',
      party: { name: 'Agency', agencyId: 'AG' },
      coreQuery: {
        kind: 'day',
        originDestinations: [{ departureCode: 'LHR', date: '2027-05-01', arrivalCode: 'CDG' }],
      },
      passengers: [{ passengerId: 'P1', ptc: 'ADT' }],
    });
  });

  // Regression: fast-xml-parser applies transformTagName twice to a self-closing tag, which made a
  // prefixed `<n:LeadDatePeriod .../>` foreign (a 0-day window) and `<n:Participants xsi:nil/>` absent.
  it('reads prefixed self-closing elements (LeadDatePeriod, nil Participants) like their long form', () => {
    const xml = encodeAirShoppingRq(calendarRoundTripRq)
      .replace(/<(\/?)(?![/?]|ns2:)/g, '<$1n:')
      .replace(`xmlns="${NDC_NS}"`, `xmlns:n="${NDC_NS}"`);
    expect(xml).toContain('<n:LeadDatePeriod After="P3D" Before="P3D"/>');
    expect(xml).toContain('<n:Participants xsi:nil="true"/>');
    expect(decodeAirShoppingRq(xml)).toStrictEqual(calendarRoundTripRq);
  });

  it('decodes a calendar search without LeadPricing as a zero-day window', () => {
    const xml = encodeAirShoppingRq(calendarOneWayRq).replace(
      '<LeadPricing><LeadDatePeriod After="P7D" Before="P0D"/></LeadPricing>',
      '',
    );
    const rq = decodeAirShoppingRq(xml);
    expect(rq.coreQuery).toStrictEqual({
      kind: 'calendar',
      originDestinations: [
        { departureCode: 'LHR', date: '2027-02-01', daysAfter: 0, daysBefore: 0, arrivalCode: 'CDG' },
      ],
    });
  });

  it('decodes one passenger or several always as an array', () => {
    expect(decodeAirShoppingRq(encodeAirShoppingRq(dayOneWayRq)).passengers).toStrictEqual([
      { passengerId: 'PAX__ADT01', ptc: 'ADT' },
    ]);
    expect(decodeAirShoppingRq(encodeAirShoppingRq(dayRoundTripRq)).passengers).toHaveLength(4);
  });

  it('decodes a query without a departure airport or arrival with coreQuery absent; the use names the element', () => {
    const noDeparture = encodeAirShoppingRq(dayRoundTripRq).replace(
      '<AirportCode>LHR</AirportCode><Date>2027-03-10</Date>',
      '<Date>2027-03-10</Date>',
    );
    const rq = decodeAirShoppingRq(noDeparture);
    expect(rq.coreQuery).toBeUndefined();
    expect(rq.party).toStrictEqual(dayRoundTripRq.party);
    expect(() => requireElement(rq.coreQuery, 'CoreQuery/OriginDestinations')).toThrow(
      expect.objectContaining({ code: 'NDC_MISSING_ELEMENT', element: 'CoreQuery/OriginDestinations' }),
    );
    const noArrival = encodeAirShoppingRq(dayRoundTripRq).replace(
      '<Arrival><AirportCode>LHR</AirportCode></Arrival>',
      '',
    );
    expect(decodeAirShoppingRq(noArrival).coreQuery).toBeUndefined();
  });

  it('refuses a malformed date and a LeadDatePeriod not in days', () => {
    const badDate = decodeError(() =>
      decodeAirShoppingRq(encodeAirShoppingRq(dayOneWayRq).replace('2027-01-05', '05/01/2027')),
    );
    expect(badDate.code).toBe('INVALID_VALUE');
    expect(badDate.path).toBe('/AirShoppingRQ/CoreQuery/OriginDestinations/OriginDestination[1]/Departure/Date');
    const week = decodeError(() =>
      decodeAirShoppingRq(encodeAirShoppingRq(calendarOneWayRq).replace('After="P7D"', 'After="P1W"')),
    );
    expect(week.code).toBe('INVALID_VALUE');
    expect(week.path).toBe(
      '/AirShoppingRQ/CoreQuery/Affinity/OriginDestination[1]/AirportCityDeparture/LeadPricing/LeadDatePeriod/@After',
    );
  });

  it('decodes a CoreQuery that is neither calendar nor day search with coreQuery absent', () => {
    const xml = encodeAirShoppingRq(dayOneWayRq).replace(
      /<CoreQuery>.*<\/CoreQuery>/,
      '<CoreQuery><FlightSpecific/></CoreQuery>',
    );
    expect(decodeAirShoppingRq(xml).coreQuery).toBeUndefined();
  });

  it('refuses another message, the wrong namespace and a missing Party', () => {
    const xml = encodeAirShoppingRq(dayOneWayRq);
    expect(decodeError(() => decodeAirShoppingRq(xml.replace(/AirShoppingRQ/g, 'OfferPriceRQ'))).code).toBe(
      'WRONG_ROOT',
    );
    expect(decodeError(() => decodeAirShoppingRq(xml.replace(`xmlns="${NDC_NS}"`, 'xmlns="urn:not-ndc"'))).code).toBe(
      'WRONG_NAMESPACE',
    );
    const noParty = decodeError(() => decodeAirShoppingRq(xml.replace(/<Party>.*<\/Party>/, '')));
    expect(noParty.code).toBe('MISSING');
    expect(noParty.path).toBe('/AirShoppingRQ/Party');
  });

  it('refuses to encode two promotion codes (the XSD allows one)', () => {
    expect(() => encodeAirShoppingRq({ ...dayOneWayRq, qualifier: { promotionCodes: ['A', 'B'] } })).toThrow(
      'NDC 17.2 allows one PromotionQualifiers/Code per Qualifier',
    );
  });
});
