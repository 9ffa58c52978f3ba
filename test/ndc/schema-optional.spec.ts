/**
 * Elements and attributes the 17.2 schema makes optional that the decoders once required (the
 * refusals the schema walks of xsd-walk.spec.ts found, issue 18). Each message is our own, written
 * in the style of the 17.2 messages airlines and NDC vendors publish: checked with xmllint, then
 * decoded. Where our logic needs a value a message leaves out, the error is typed and names the
 * element (`requireElement`, `requirePtc`, `requireMoney`).
 */
import * as ndc from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';

const NDC = ndc.NDC_NS;

describe('schema-optional elements are decoded when absent', () => {
  it('AirShoppingRS calendar: dates without OriginDestinationReference, an OriginDestination without key, sparse metadata', () => {
    const xml = `<AirShoppingRS xmlns="${NDC}" Version="17.2" TimeStamp="2027-01-10T08:30:00Z">
  <Document/><Success/>
  <OffersGroup><AirlineOffers>
    <PriceCalendar><PriceCalendarDate>2027-02-03</PriceCalendarDate><TotalPrice Code="NOK">1290</TotalPrice></PriceCalendar>
    <PriceCalendar><PriceCalendarDate>2027-02-04</PriceCalendarDate><PriceCalendarDate OriginDestinationReference="OD_BACK">2027-02-09</PriceCalendarDate><TotalPrice Code="NOK">2480</TotalPrice></PriceCalendar>
  </AirlineOffers></OffersGroup>
  <DataLists><OriginDestinationList>
    <OriginDestination><DepartureCode>OSL</DepartureCode><ArrivalCode>BGO</ArrivalCode></OriginDestination>
    <OriginDestination OriginDestinationKey="OD_BACK"><DepartureCode>BGO</DepartureCode><ArrivalCode>OSL</ArrivalCode></OriginDestination>
  </OriginDestinationList></DataLists>
  <Metadata><Other>
    <OtherMetadata><LanguageMetadatas><LanguageMetadata MetadataKey="LANG_NO"><Code_ISO>no</Code_ISO></LanguageMetadata></LanguageMetadatas></OtherMetadata>
    <OtherMetadata><CountryMetadatas><CountryMetadata MetadataKey="CTRY_NO"><Name>Norway</Name></CountryMetadata></CountryMetadatas></OtherMetadata>
    <OtherMetadata><CityMetadatas><CityMetadata MetadataKey="CITY_OSL"/></CityMetadatas></OtherMetadata>
  </Other></Metadata>
</AirShoppingRS>`;
    expectValidXsd(xml, 'AirShoppingRS');
    const rs = ndc.decodeAirShoppingRs(xml);
    if (rs.kind !== 'calendar') throw new Error('expected the calendar form');
    expect(rs.airlineOffers[0].priceCalendar.map((e) => e.dates)).toStrictEqual([
      [{ date: '2027-02-03' }],
      [{ date: '2027-02-04' }, { date: '2027-02-09', originDestinationRef: 'OD_BACK' }],
    ]);
    expect(rs.dataLists.originDestinations).toStrictEqual([
      { departureCode: 'OSL', arrivalCode: 'BGO' },
      { originDestinationKey: 'OD_BACK', departureCode: 'BGO', arrivalCode: 'OSL' },
    ]);
    expect(rs.metadata).toStrictEqual({
      languages: [{ key: 'LANG_NO', codeIso: 'no' }],
      countries: [{ key: 'CTRY_NO', name: 'Norway' }],
      cities: [{ key: 'CITY_OSL' }],
    });
    expect(ndc.checkReferences(rs)).toStrictEqual([]);
    // Written back as it came (nothing is invented for what was absent), still valid.
    const again = ndc.encodeAirShoppingRs(rs);
    expectValidXsd(again, 'AirShoppingRS');
    expect(ndc.decodeAirShoppingRs(again)).toStrictEqual(rs);
  });

  it('OfferPriceRS: a segment without times or arrival date, an operating carrier by name only, unkeyed list entries, a passenger without PTC', () => {
    const xml = `<ns:OfferPriceRS xmlns:ns="${NDC}" Version="17.2">
  <ns:Document/><ns:Success/>
  <ns:ShoppingResponseID><ns:ResponseID>WF-PR-0311</ns:ResponseID></ns:ShoppingResponseID>
  <ns:PricedOffer OfferID="WF-OF-7" Owner="WF">
    <ns:TotalPrice><ns:DetailCurrencyPrice><ns:Total Code="NOK">1840</ns:Total></ns:DetailCurrencyPrice></ns:TotalPrice>
    <ns:OfferItem OfferItemID="WF-OI-1">
      <ns:TotalPriceDetail><ns:TotalAmount><ns:SimpleCurrencyPrice Code="NOK">1840</ns:SimpleCurrencyPrice></ns:TotalAmount></ns:TotalPriceDetail>
      <ns:Service ServiceID="WF-S-1"><ns:PassengerRefs>T1</ns:PassengerRefs><ns:FlightRefs>FLT_1</ns:FlightRefs></ns:Service>
    </ns:OfferItem>
  </ns:PricedOffer>
  <ns:DataLists>
    <ns:PassengerList><ns:Passenger PassengerID="T1"><ns:Age>34</ns:Age></ns:Passenger></ns:PassengerList>
    <ns:ContactList><ns:ContactInformation>
      <ns:ContactProvided><ns:Phone><ns:Label>Office</ns:Label><ns:AreaCode>22</ns:AreaCode></ns:Phone></ns:ContactProvided>
    </ns:ContactInformation></ns:ContactList>
    <ns:FlightSegmentList><ns:FlightSegment SegmentKey="SEG_WF562">
      <ns:Departure><ns:AirportCode>SOG</ns:AirportCode><ns:Date>2027-03-15</ns:Date></ns:Departure>
      <ns:Arrival><ns:AirportCode>BGO</ns:AirportCode></ns:Arrival>
      <ns:MarketingCarrier><ns:AirlineID>WF</ns:AirlineID><ns:FlightNumber>562</ns:FlightNumber></ns:MarketingCarrier>
      <ns:OperatingCarrier><ns:Name>Wideroe Regional</ns:Name></ns:OperatingCarrier>
    </ns:FlightSegment></ns:FlightSegmentList>
    <ns:FlightList>
      <ns:Flight FlightKey="FLT_1"><ns:SegmentReferences>SEG_WF562</ns:SegmentReferences></ns:Flight>
      <ns:Flight><ns:SegmentReferences>SEG_WF562</ns:SegmentReferences></ns:Flight>
    </ns:FlightList>
    <ns:PriceClassList><ns:PriceClass><ns:Name>Wideroe Flex</ns:Name><ns:Code>FLEX</ns:Code></ns:PriceClass></ns:PriceClassList>
  </ns:DataLists>
</ns:OfferPriceRS>`;
    expectValidXsd(xml, 'OfferPriceRS');
    const rs = ndc.decodeOfferPriceRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    const dl = rs.dataLists;
    expect(dl.passengers).toStrictEqual([{ passengerId: 'T1' }]);
    expect(dl.contacts).toStrictEqual([{ provided: [{ phone: {} }] }]);
    expect(dl.flightSegments).toStrictEqual([
      {
        segmentKey: 'SEG_WF562',
        departure: { airportCode: 'SOG', date: '2027-03-15' },
        arrival: { airportCode: 'BGO' },
        marketingCarrier: { airlineId: 'WF', flightNumber: '562' },
        operatingCarrier: { name: 'Wideroe Regional' },
      },
    ]);
    expect(dl.flights).toStrictEqual([
      { flightKey: 'FLT_1', segmentRefs: ['SEG_WF562'] },
      { segmentRefs: ['SEG_WF562'] },
    ]);
    expect(dl.priceClasses).toStrictEqual([{ name: 'Wideroe Flex', code: 'FLEX' }]);
    expect(ndc.checkReferences(rs)).toStrictEqual([]);
    // Logic that prices by passenger type asks for the PTC and gets the element named.
    expect(() => ndc.requirePtc(dl.passengers![0])).toThrow(
      expect.objectContaining({
        code: 'NDC_MISSING_ELEMENT',
        element: "PassengerList/Passenger[@PassengerID='T1']/PTC",
      }),
    );
    const again = ndc.encodeOfferPriceRs(rs);
    expectValidXsd(again, 'OfferPriceRS');
    expect(ndc.decodeOfferPriceRs(again)).toStrictEqual(rs);
  });

  it('OrderViewRS: payments in DetailCurrencyPrice and in award miles, a voucher without number, Taxes without Total', () => {
    const xml = `<OrderViewRS xmlns="${NDC}" Version="17.2"><Document/><Success/><Response>
  <Order OrderID="SK-ORD-4411" Owner="SK">
    <Payments>
      <Payment><Type>CA</Type><Amount><DetailCurrencyPrice><Total Code="SEK">642.00</Total></DetailCurrencyPrice></Amount>
        <Method><VoucherMethod><EffectiveExpireDate><Expiration>2027-12-31</Expiration></EffectiveExpireDate></VoucherMethod></Method></Payment>
      <Payment><Type>MP</Type><Amount><AwardPricing><Redemption><Unit>POINTS</Unit><Quantity>15000</Quantity></Redemption></AwardPricing></Amount>
        <Method><RedemptionMethod/></Method></Payment>
    </Payments>
    <OrderItems><OrderItem OrderItemID="SK-ORD-4411-1"><PriceDetail><BaseAmount Code="SEK">642.00</BaseAmount><Taxes/></PriceDetail>
      <Service ServiceID="SK-SV-1"><PassengerRef>PX1</PassengerRef><SegmentRef>SEG1</SegmentRef></Service>
    </OrderItem></OrderItems>
  </Order>
</Response></OrderViewRS>`;
    expectValidXsd(xml, 'OrderViewRS');
    const rs = ndc.decodeOrderViewRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.orders[0].payments).toStrictEqual([
      { type: 'CA', amount: { value: '642.00', currency: 'SEK' } },
      { type: 'MP', otherPrice: { form: 'AwardPricing', redemption: { unit: 'POINTS', quantity: '15000' } } },
    ]);
    expect(rs.orders[0].orderItems[0]).toStrictEqual({
      orderItemId: 'SK-ORD-4411-1',
      base: { value: '642.00', currency: 'SEK' },
      services: [{ serviceId: 'SK-SV-1', passengerRef: 'PX1', segmentRef: 'SEG1' }],
    });
    const miles = rs.orders[0].payments[1];
    expect(() =>
      ndc.requireMoney(miles.amount, 'Order/Payments/Payment/Amount', { otherPrice: miles.otherPrice }),
    ).toThrow(ndc.NdcNoMoneyPriceError);
    // Our encoder writes a voucher's number and money only, and says so.
    expect(() => ndc.encodeOrderViewRs(rs)).toThrow(
      'Payment: only a VoucherMethod payment (voucherNumber) can be encoded',
    );
    const inMiles = { ...rs, orders: [{ ...rs.orders[0], payments: [{ ...miles, voucherNumber: 'V-1' }] }] };
    expect(() => ndc.encodeOrderViewRs(inMiles)).toThrow('Payment: only an amount in money (amount) can be encoded');
  });

  it('OrderCreateRQ: a passenger without PTC, a voucher without number, an alert with only the device, a partial 3-D Secure result', () => {
    const xml = `<OrderCreateRQ xmlns="${NDC}" Version="17.2">
  <Document/>
  <Party><Sender><TravelAgencySender><AgencyID>91234567</AgencyID></TravelAgencySender></Sender></Party>
  <OrderCreateParameters><Alerts><Alert><SecurePaymentAlert>
    <Details><CustomerDevice><IP_Address>198.51.100.20</IP_Address></CustomerDevice></Details>
    <ProcessingInfos><ProcessingInfo><CustomerAuthStatus>Y</CustomerAuthStatus></ProcessingInfo></ProcessingInfos>
  </SecurePaymentAlert></Alert></Alerts></OrderCreateParameters>
  <Query>
    <Order><Offer OfferID="OF-88" Owner="ZZ" ResponseID="PR-88"><OfferItem OfferItemID="OF-88-I1"><PassengerRefs>PAX_A</PassengerRefs></OfferItem></Offer></Order>
    <Payments><Payment><Type>CC</Type><Method><Voucher/></Method><Amount Code="GBP">210.40</Amount></Payment></Payments>
    <DataLists>
      <PassengerList><Passenger PassengerID="PAX_A"><Individual><GivenName>Ola</GivenName><Surname>Nordmann</Surname></Individual><ContactInfoRef>CT_A</ContactInfoRef></Passenger></PassengerList>
      <ContactList><ContactInformation ContactID="CT_A"><ContactProvided><EmailAddress><EmailAddressValue>ola@example.no</EmailAddressValue></EmailAddress></ContactProvided></ContactInformation></ContactList>
    </DataLists>
  </Query>
</OrderCreateRQ>`;
    expectValidXsd(xml, 'OrderCreateRQ');
    const rq = ndc.decodeOrderCreateRq(xml);
    expect(rq.passengers).toStrictEqual([
      {
        passengerId: 'PAX_A',
        individual: { givenNames: ['Ola'], surname: 'Nordmann' },
        contactInfoRef: 'CT_A',
      },
    ]);
    expect(rq.payments).toStrictEqual([{ type: 'CC', amount: { value: '210.40', currency: 'GBP' } }]);
    expect(rq.securePayment).toStrictEqual({ ipAddress: '198.51.100.20', authentication: { status: 'Y' } });
    expect(() => ndc.requirePtc(rq.passengers[0])).toThrow(
      "the message has no PassengerList/Passenger[@PassengerID='PAX_A']/PTC, which this operation needs",
    );
  });
});
