/**
 * Shapes that airlines' and NDC vendors' published 17.2 messages use and that the decoders once
 * refused (issue 18): written here in the same style (our own messages, not copies). Each is
 * checked with xmllint, then decoded; where our logic needs a value the shape lacks, the error is
 * typed and names the element.
 */
import * as ndc from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';

const NDC = ndc.NDC_NS;

describe('published NDC 17.2 shapes', () => {
  it('OfferPriceRS: a connection whose second leg is operated without a FlightNumber, one booking class naming both segments', () => {
    const segment = (key: string, from: string, to: string, date: string, operating: string) =>
      `<n:FlightSegment SegmentKey="${key}">
        <n:Departure><n:AirportCode>${from}</n:AirportCode><n:Date>${date}</n:Date><n:Time>09:40</n:Time></n:Departure>
        <n:Arrival><n:AirportCode>${to}</n:AirportCode><n:Date>${date}</n:Date><n:Time>12:15</n:Time></n:Arrival>
        <n:MarketingCarrier><n:AirlineID>LX</n:AirlineID><n:FlightNumber>${key.slice(-3)}</n:FlightNumber></n:MarketingCarrier>
        ${operating}
      </n:FlightSegment>`;
    const xml = `<n:OfferPriceRS xmlns:n="${NDC}" Version="17.2" TimeStamp="2027-02-01T10:00:00Z">
  <n:Document/><n:Success/>
  <n:ShoppingResponseID><n:ResponseID>LX-PR-2201</n:ResponseID></n:ShoppingResponseID>
  <n:PricedOffer OfferID="LX-OF-1" Owner="LX">
    <n:TotalPrice><n:DetailCurrencyPrice><n:Total Code="CHF">812.35</n:Total></n:DetailCurrencyPrice></n:TotalPrice>
    <n:OfferItem OfferItemID="LX-OI-1">
      <n:TotalPriceDetail><n:TotalAmount><n:DetailCurrencyPrice><n:Total Code="CHF">812.35</n:Total></n:DetailCurrencyPrice></n:TotalAmount></n:TotalPriceDetail>
      <n:Service ServiceID="LX-S-1"><n:PassengerRefs>P1</n:PassengerRefs><n:FlightRefs>FL1</n:FlightRefs></n:Service>
    </n:OfferItem>
  </n:PricedOffer>
  <n:DataLists>
    <n:PassengerList><n:Passenger PassengerID="P1"><n:PTC>ADT</n:PTC></n:Passenger></n:PassengerList>
    <n:FlightSegmentList>
      ${segment('SEG_LX318', 'LHR', 'ZRH', '2027-03-02', '<n:OperatingCarrier><n:AirlineID>LX</n:AirlineID><n:FlightNumber>318</n:FlightNumber></n:OperatingCarrier>')}
      ${segment('SEG_LX176', 'ZRH', 'SIN', '2027-03-02', '<n:OperatingCarrier><n:AirlineID>SQ</n:AirlineID><n:Name>Singapore Airlines</n:Name></n:OperatingCarrier>')}
    </n:FlightSegmentList>
    <n:FlightList><n:Flight FlightKey="FL1"><n:SegmentReferences>SEG_LX318 SEG_LX176</n:SegmentReferences></n:Flight></n:FlightList>
    <n:PriceClassList><n:PriceClass PriceClassID="PC_LIGHT"><n:Name>Economy Light</n:Name>
      <n:ClassOfService refs="SEG_LX318 SEG_LX176"><n:Code SeatsLeft="4">K</n:Code></n:ClassOfService>
    </n:PriceClass></n:PriceClassList>
  </n:DataLists>
</n:OfferPriceRS>`;
    expectValidXsd(xml, 'OfferPriceRS');
    const rs = ndc.decodeOfferPriceRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    const [first, second] = rs.dataLists.flightSegments!;
    expect(first.operatingCarrier).toStrictEqual({ airlineId: 'LX', flightNumber: '318' });
    expect(second.operatingCarrier).toStrictEqual({ airlineId: 'SQ', name: 'Singapore Airlines' });
    expect(rs.dataLists.priceClasses![0].classesOfService).toStrictEqual([
      { segmentRefs: ['SEG_LX318', 'SEG_LX176'], code: 'K', seatsLeft: 4 },
    ]);
    expect(ndc.checkReferences(rs)).toStrictEqual([]);
    // Written back, both stay as they were (and still validate).
    const again = ndc.encodeOfferPriceRs(rs);
    expectValidXsd(again, 'OfferPriceRS');
    expect(ndc.decodeOfferPriceRs(again)).toStrictEqual(rs);
  });

  it('AirShoppingRQ: a corporate Contract (not an Account) with a CompanyIndex in SpecialFareQualifiers', () => {
    const xml = `<AirShoppingRQ xmlns="${NDC}" Version="17.2">
  <Document><Name>TMC Booking Tool</Name></Document>
  <Party><Sender><TravelAgencySender><Name>Corporate TMC</Name><AgencyID>77001122</AgencyID></TravelAgencySender></Sender></Party>
  <CoreQuery><OriginDestinations><OriginDestination>
    <Departure><AirportCode>LGW</AirportCode><Date>2027-04-14</Date></Departure><Arrival><AirportCode>OSL</AirportCode></Arrival>
  </OriginDestination></OriginDestinations></CoreQuery>
  <Qualifier><SpecialFareQualifiers><AirlineID>ZZ</AirlineID><CompanyIndex>ACME</CompanyIndex><Contract>CTR-2027-114</Contract></SpecialFareQualifiers></Qualifier>
  <DataLists><PassengerList><Passenger PassengerID="P1"><PTC>ADT</PTC></Passenger></PassengerList></DataLists>
</AirShoppingRQ>`;
    expectValidXsd(xml, 'AirShoppingRQ');
    const rq = ndc.decodeAirShoppingRq(xml);
    expect(rq.qualifier).toStrictEqual({
      specialFare: { airlineId: 'ZZ', companyIndex: 'ACME', contract: 'CTR-2027-114' },
    });
    const again = ndc.encodeAirShoppingRq(rq);
    expectValidXsd(again, 'AirShoppingRQ');
    expect(ndc.decodeAirShoppingRq(again).qualifier).toStrictEqual(rq.qualifier);
    expect(() =>
      ndc.encodeAirShoppingRq({ ...rq, qualifier: { specialFare: { airlineId: 'ZZ', contract: 'C', account: 'A' } } }),
    ).toThrow('SpecialFareQualifiers holds a Contract or an Account, not both (XSD choice)');
  });

  it('OrderViewRS: a paid seat (PassengerRef + SelectedSeat), a phone without CountryDialingCode, amounts whose only currency metadata gives decimals', () => {
    const xml = `<OrderViewRS xmlns="${NDC}" Version="17.2"><Document/><Success/><Response>
  <Order OrderID="ORD-55X1" Owner="DY">
    <BookingReferences><BookingReference><ID>7YHQ2M</ID><AirlineID>DY</AirlineID></BookingReference></BookingReferences>
    <TotalOrderPrice><SimpleCurrencyPrice>1519</SimpleCurrencyPrice></TotalOrderPrice>
    <OrderItems>
      <OrderItem OrderItemID="ORD-55X1-1"><PriceDetail><BaseAmount>1320</BaseAmount><Taxes><Total>120</Total></Taxes></PriceDetail>
        <Service ServiceID="SV1"><PassengerRef>P1</PassengerRef><SegmentRef>SEG1</SegmentRef></Service></OrderItem>
      <OrderItem OrderItemID="ORD-55X1-2"><PriceDetail><BaseAmount>79</BaseAmount></PriceDetail>
        <Service ServiceID="SV2"><PassengerRef>P1</PassengerRef>
          <SelectedSeat><Seat><Row>14</Row><Column>C</Column></Seat><SegmentRef>SEG1</SegmentRef><ServiceDefinitionRef>SD_SEAT</ServiceDefinitionRef></SelectedSeat>
        </Service></OrderItem>
    </OrderItems>
  </Order>
  <DataLists>
    <ContactList><ContactInformation ContactID="C1">
      <ContactProvided><Phone><PhoneNumber>004799887766</PhoneNumber></Phone></ContactProvided>
      <ContactProvided><EmailAddress><EmailAddressValue>kari@example.no</EmailAddressValue></EmailAddress></ContactProvided>
    </ContactInformation></ContactList>
  </DataLists>
  <Metadata><Other><OtherMetadata><CurrencyMetadatas><CurrencyMetadata MetadataKey="CUR1"><Decimals>0</Decimals></CurrencyMetadata></CurrencyMetadatas></OtherMetadata></Other></Metadata>
</Response></OrderViewRS>`;
    expectValidXsd(xml, 'OrderViewRS');
    const rs = ndc.decodeOrderViewRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    const order = rs.orders[0];
    expect(order.orderItems[1].services).toStrictEqual([
      {
        serviceId: 'SV2',
        passengerRef: 'P1',
        selectedSeat: { row: 14, column: 'C', segmentRef: 'SEG1', serviceDefinitionRef: 'SD_SEAT' },
      },
    ]);
    expect(rs.dataLists.contacts).toStrictEqual([
      { contactId: 'C1', provided: [{ phone: { phoneNumber: '004799887766' } }, { email: 'kari@example.no' }] },
    ]);
    // No currency: the amounts carry the metadata's decimal places, not a currency nobody named ...
    expect(order.totalOrderPrice).toStrictEqual({ value: '1519', decimals: 0 });
    expect(order.orderItems[1].base).toStrictEqual({ value: '79', decimals: 0 });
    // ... and using one as money is a typed error naming the element, even with a currency to assume.
    const use = () => ndc.requireMoney(order.totalOrderPrice, 'Order/TotalOrderPrice', { currency: 'GBP' });
    expect(use).toThrow(ndc.NdcUnknownCurrencyError);
    expect(use).toThrow(
      expect.objectContaining({ code: 'NDC_MISSING_ELEMENT', element: 'Order/TotalOrderPrice/@Code' }),
    );
    expect(use).toThrow(
      'the message gives Order/TotalOrderPrice without a currency (its CurrencyMetadata names none, only 0 decimal places), and this operation needs one',
    );
  });

  it('AirShoppingRS calendar: one PriceCalendar per out-and-back pair of dates, TotalPrice@refs naming both journeys', () => {
    const pair = (out: string, back: string, total: string) =>
      `<PriceCalendar><PriceCalendarDate OriginDestinationReference="OD1">${out}</PriceCalendarDate>` +
      `<PriceCalendarDate OriginDestinationReference="OD2">${back}</PriceCalendarDate>` +
      `<TotalPrice Code="EUR" refs="J_OUT J_BACK">${total}</TotalPrice></PriceCalendar>`;
    const xml = `<AirShoppingRS xmlns="${NDC}" xmlns:ext="urn:example:calendar" Version="17.2"><Document/><Success/>
  <OffersGroup><AirlineOffers>${pair('2027-05-03', '2027-05-10', '240.00')}${pair('2027-05-04', '2027-05-10', '212.00')}</AirlineOffers></OffersGroup>
  <DataLists><OriginDestinationList>
    <OriginDestination OriginDestinationKey="OD1"><DepartureCode>AMS</DepartureCode><ArrivalCode>LIS</ArrivalCode></OriginDestination>
    <OriginDestination OriginDestinationKey="OD2"><DepartureCode>LIS</DepartureCode><ArrivalCode>AMS</ArrivalCode></OriginDestination>
  </OriginDestinationList></DataLists>
</AirShoppingRS>`;
    expectValidXsd(xml, 'AirShoppingRS');
    const rs = ndc.decodeAirShoppingRs(xml);
    if (rs.kind !== 'calendar') throw new Error('expected the calendar form');
    expect(rs.airlineOffers[0].priceCalendar).toStrictEqual([
      {
        dates: [
          { date: '2027-05-03', originDestinationRef: 'OD1' },
          { date: '2027-05-10', originDestinationRef: 'OD2' },
        ],
        totalPrice: { value: '240.00', currency: 'EUR' },
        augPointRefs: ['J_OUT', 'J_BACK'],
      },
      {
        dates: [
          { date: '2027-05-04', originDestinationRef: 'OD1' },
          { date: '2027-05-10', originDestinationRef: 'OD2' },
        ],
        totalPrice: { value: '212.00', currency: 'EUR' },
        augPointRefs: ['J_OUT', 'J_BACK'],
      },
    ]);
  });

  it('OfferPriceRS: a flight offer priced with an à-la-carte offer of a seat and a bag (OtherOffers/ALaCarteOffer)', () => {
    const item = (id: string, sd: string, price: string, eligibility: string) =>
      `<ALaCarteOfferItem OfferItemID="${id}"><Eligibility>${eligibility}</Eligibility>` +
      `<UnitPriceDetail><TotalAmount><SimpleCurrencyPrice Code="EUR">${price}</SimpleCurrencyPrice></TotalAmount></UnitPriceDetail>` +
      `<Service ServiceID="${id}-S"><ServiceDefinitionRef>${sd}</ServiceDefinitionRef></Service></ALaCarteOfferItem>`;
    const xml = `<OfferPriceRS xmlns="${NDC}" Version="17.2"><Document/><Success/>
  <ShoppingResponseID><ResponseID>FR-OP-88</ResponseID></ShoppingResponseID>
  <PricedOffer OfferID="FLT-1" Owner="FR">
    <TotalPrice><DetailCurrencyPrice><Total Code="EUR">163.98</Total></DetailCurrencyPrice></TotalPrice>
    <OfferItem OfferItemID="FLT-1-1"><TotalPriceDetail><TotalAmount><SimpleCurrencyPrice Code="EUR">119.99</SimpleCurrencyPrice></TotalAmount></TotalPriceDetail>
      <Service ServiceID="FLT-1-1-S"><PassengerRefs>P1</PassengerRefs><FlightRefs>FL1</FlightRefs></Service></OfferItem>
  </PricedOffer>
  <OtherOffers>
    <ALaCarteOffer OfferID="ALC-7" Owner="FR">
      ${item('ALC-7-SEAT', 'SD_SEAT', '14.00', '<PassengerRefs>P1</PassengerRefs><SegmentRefs>SEG1</SegmentRefs>')}
      ${item('ALC-7-BAG', 'SD_BAG20', '29.99', '<PassengerRefs AnyPassengerInd="true">P1</PassengerRefs>')}
    </ALaCarteOffer>
  </OtherOffers>
</OfferPriceRS>`;
    expectValidXsd(xml, 'OfferPriceRS');
    const rs = ndc.decodeOfferPriceRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.otherOffers).toStrictEqual({
      offers: [],
      aLaCarte: {
        offerId: 'ALC-7',
        owner: 'FR',
        items: [
          {
            offerItemId: 'ALC-7-SEAT',
            eligibility: { passengerRefs: ['P1'], segmentRefs: ['SEG1'] },
            unitPrice: { total: { value: '14.00', currency: 'EUR' } },
            service: { serviceId: 'ALC-7-SEAT-S', serviceDefinitionRef: 'SD_SEAT' },
          },
          {
            offerItemId: 'ALC-7-BAG',
            eligibility: { passengerRefs: ['P1'] },
            unitPrice: { total: { value: '29.99', currency: 'EUR' } },
            service: { serviceId: 'ALC-7-BAG-S', serviceDefinitionRef: 'SD_BAG20' },
          },
        ],
      },
    });
    // The total includes them: 119.99 + 14.00 + 29.99.
    expect(rs.pricedOffer.total).toStrictEqual({ value: '163.98', currency: 'EUR' });
    const again = ndc.encodeOfferPriceRs(rs);
    expectValidXsd(again, 'OfferPriceRS');
    const back = ndc.decodeOfferPriceRs(again);
    expect(back.kind === 'success' && back.otherOffers).toStrictEqual(rs.otherOffers);
  });
});
