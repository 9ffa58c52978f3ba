/**
 * Messages written the way another NDC vendor writes them: other prefixes, declarations on inner
 * elements, SOAP envelopes with headers, no TimeStamp, senders and extension content of other
 * parties. Each is checked with xmllint (the NDC document inside any envelope) and decoded.
 */
import * as ndc from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';

const NDC = ndc.NDC_NS;
const S11 = ndc.SOAP11_NS;
const S12 = ndc.SOAP12_NS;
const PARTNER_EXT = 'urn:example:partner-gds:ndc-ext:v3';

/** xmllint on the NDC document (the envelope's Body content, namespaces in scope). */
function expectValidNdc(xml: string, root: string): void {
  expectValidXsd(ndc.unwrapSoap(xml).text, root);
}

describe('third-party NDC messages', () => {
  it('AirShoppingRQ: SOAP 1.1 with a WS-Security header, prefix iata declared on the Body, no TimeStamp, agency without Name', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<soapenv:Envelope xmlns:soapenv="${S11}" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">
  <soapenv:Header>
    <wsse:Security soapenv:mustUnderstand="1"><wsse:UsernameToken><wsse:Username>PARTNER</wsse:Username><wsse:Password>not-read</wsse:Password></wsse:UsernameToken></wsse:Security>
  </soapenv:Header>
  <soapenv:Body xmlns:iata="${NDC}">
    <iata:AirShoppingRQ Version="17.2" TransactionIdentifier="GDS-7781" EchoToken="e-1" PrimaryLangID="en">
      <iata:Document><iata:Name>NDC GATEWAY</iata:Name></iata:Document>
      <iata:Party>
        <iata:Sender><iata:TravelAgencySender><iata:AgencyID>91234567</iata:AgencyID></iata:TravelAgencySender></iata:Sender>
      </iata:Party>
      <iata:CoreQuery>
        <iata:OriginDestinations>
          <iata:OriginDestination>
            <iata:Departure><iata:AirportCode>LHR</iata:AirportCode><iata:Date>2027-01-05</iata:Date></iata:Departure>
            <iata:Arrival><iata:AirportCode>JFK</iata:AirportCode></iata:Arrival>
          </iata:OriginDestination>
        </iata:OriginDestinations>
      </iata:CoreQuery>
      <iata:DataLists><iata:PassengerList><iata:Passenger PassengerID="T1"><iata:PTC>ADT</iata:PTC></iata:Passenger></iata:PassengerList></iata:DataLists>
    </iata:AirShoppingRQ>
  </soapenv:Body>
</soapenv:Envelope>`;
    expectValidNdc(xml, 'AirShoppingRQ');
    expect(ndc.detectBinding(xml)).toBe('soap11');
    expect(ndc.ndcRootName(xml)).toBe('AirShoppingRQ');
    expect(ndc.decodeAirShoppingRq(xml)).toStrictEqual({
      target: 'Production',
      version: '17.2',
      transactionIdentifier: 'GDS-7781',
      party: { agencyId: '91234567' },
      coreQuery: {
        kind: 'day',
        originDestinations: [{ departureCode: 'LHR', date: '2027-01-05', arrivalCode: 'JFK' }],
      },
      passengers: [{ passengerId: 'T1', ptc: 'ADT' }],
    });
  });

  it('OfferPriceRQ: an aggregator sender, prefix bound on Query only, and the partner extension in PaymentFormMetadata ignored', () => {
    const xml = `<OfferPriceRQ xmlns="${NDC}" Version="17.2" Target="Test">
  <Document/>
  <Party><Sender><AggregatorSender><AggregatorID>AGG-9</AggregatorID></AggregatorSender></Sender></Party>
  <n1:Query xmlns:n1="${NDC}"><n1:Offer OfferID="OF1" Owner="XS" ResponseID="SR-1"><n1:OfferItem OfferItemID="OI1"><n1:PassengerRefs>T1</n1:PassengerRefs></n1:OfferItem></n1:Offer></n1:Query>
  <Metadata><Other><OtherMetadata><PaymentFormMetadatas><PaymentFormMetadata MetadataKey="PFM1">
    <AugmentationPoint><AugPoint><px:Card xmlns:px="${PARTNER_EXT}"><px:Token>gds-token-1</px:Token></px:Card></AugPoint></AugmentationPoint>
  </PaymentFormMetadata></PaymentFormMetadatas></OtherMetadata></Other></Metadata>
</OfferPriceRQ>`;
    expectValidNdc(xml, 'OfferPriceRQ');
    const rq = ndc.decodeOfferPriceRq(xml);
    expect(rq.party).toStrictEqual({ senderKind: 'AggregatorSender' });
    expect(rq.offers).toStrictEqual([
      { offerId: 'OF1', owner: 'XS', responseId: 'SR-1', offerItems: [{ offerItemId: 'OI1', passengerRefs: ['T1'] }] },
    ]);
    expect(rq.paymentForms).toStrictEqual([]);
    expect(() => ndc.requireElement(rq.party.agencyId, ndc.AGENCY_ID_ELEMENT)).toThrow(ndc.NdcMissingElementError);
  });

  it('OrderViewRS: SOAP 1.2, prefix ns1 on the root, no TimeStamp, no Status, an OtherID booking reference', () => {
    const xml = `<env:Envelope xmlns:env="${S12}"><env:Header><hdr:Trace xmlns:hdr="urn:partner:trace">t-1</hdr:Trace></env:Header><env:Body>
<ns1:OrderViewRS xmlns:ns1="${NDC}" Version="17.2" CorrelationID="c-77">
  <ns1:Document/><ns1:Success/>
  <ns1:Response>
    <ns1:Order OrderID="P-ORDER-1" Owner="XS">
      <ns1:BookingReferences><ns1:BookingReference><ns1:ID>Q1W2E3</ns1:ID><ns1:OtherID>GDS</ns1:OtherID></ns1:BookingReference></ns1:BookingReferences>
      <ns1:TotalOrderPrice><ns1:SimpleCurrencyPrice Code="EUR">310.20</ns1:SimpleCurrencyPrice></ns1:TotalOrderPrice>
      <ns1:OrderItems><ns1:OrderItem OrderItemID="OI-1"><ns1:PriceDetail><ns1:BaseAmount Code="EUR">250.00</ns1:BaseAmount></ns1:PriceDetail>
        <ns1:Service ServiceID="S1"><ns1:PassengerRef>T1</ns1:PassengerRef><ns1:SegmentRef>SEG1</ns1:SegmentRef></ns1:Service></ns1:OrderItem></ns1:OrderItems>
    </ns1:Order>
  </ns1:Response>
</ns1:OrderViewRS></env:Body></env:Envelope>`;
    expectValidNdc(xml, 'OrderViewRS');
    const rs = ndc.decodeOrderViewRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.correlationId).toBe('c-77');
    expect(rs.timeStamp).toBeUndefined();
    expect(rs.orders).toStrictEqual([
      {
        orderId: 'P-ORDER-1',
        owner: 'XS',
        bookingReferences: [{ id: 'Q1W2E3' }],
        totalOrderPrice: { value: '310.20', currency: 'EUR' },
        payments: [],
        orderItems: [
          {
            orderItemId: 'OI-1',
            base: { value: '250.00', currency: 'EUR' },
            services: [{ serviceId: 'S1', passengerRef: 'T1', segmentRef: 'SEG1' }],
          },
        ],
      },
    ]);
    expect(() => ndc.requireElement(rs.orders[0].statusCode, 'Order/Status')).toThrow(
      'the message has no Order/Status, which this operation needs',
    );
  });

  it('OrderCancelRQ: by booking reference only, with a reason, no TimeStamp', () => {
    const xml = `<c:OrderCancelRQ xmlns:c="${NDC}" Version="17.2"><c:Document/>
  <c:Party><c:Sender><c:TravelAgencySender><c:Name>Other Agency</c:Name><c:AgencyID>OA1</c:AgencyID></c:TravelAgencySender></c:Sender></c:Party>
  <c:OrderCancelParameters><c:Reason>VOL</c:Reason></c:OrderCancelParameters>
  <c:Query><c:BookingReferences><c:BookingReference><c:ID>K7QX3P</c:ID><c:AirlineID>XS</c:AirlineID></c:BookingReference></c:BookingReferences></c:Query>
</c:OrderCancelRQ>`;
    expectValidNdc(xml, 'OrderCancelRQ');
    expect(ndc.decodeOrderCancelRq(xml)).toStrictEqual({
      target: 'Production',
      version: '17.2',
      party: { name: 'Other Agency', agencyId: 'OA1' },
      reason: 'VOL',
      bookingReferences: [{ id: 'K7QX3P', airlineId: 'XS' }],
    });
  });

  it('OfferPriceRS: TotalPrice as EncodedCurrencyPrice, amounts without Code, the currency from CurrencyMetadatas', () => {
    const xml = `<x:OfferPriceRS xmlns:x="${NDC}" Version="17.2"><x:Document/><x:Success/>
  <x:ShoppingResponseID><x:ResponseID>P-77</x:ResponseID></x:ShoppingResponseID>
  <x:PricedOffer OfferID="PO1" Owner="DY">
    <x:TotalPrice><x:EncodedCurrencyPrice Code="NOK">2190.50</x:EncodedCurrencyPrice></x:TotalPrice>
    <x:OfferItem OfferItemID="I1">
      <x:TotalPriceDetail><x:TotalAmount><x:SimpleCurrencyPrice>2190.50</x:SimpleCurrencyPrice></x:TotalAmount>
        <x:BaseAmount>1800.00</x:BaseAmount><x:Taxes><x:Total>390.50</x:Total></x:Taxes></x:TotalPriceDetail>
      <x:Service ServiceID="S1"><x:PassengerRefs>T1</x:PassengerRefs><x:FlightRefs>F1</x:FlightRefs></x:Service>
    </x:OfferItem>
  </x:PricedOffer>
  <x:Metadata><x:Other><x:OtherMetadata><x:CurrencyMetadatas>
    <x:CurrencyMetadata MetadataKey="NOK"><x:Application>Actual</x:Application><x:Decimals>2</x:Decimals><x:Name>Norwegian krone</x:Name></x:CurrencyMetadata>
  </x:CurrencyMetadatas></x:OtherMetadata></x:Other></x:Metadata>
</x:OfferPriceRS>`;
    expectValidNdc(xml, 'OfferPriceRS');
    const rs = ndc.decodeOfferPriceRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.pricedOffer.total).toStrictEqual({ value: '2190.50', currency: 'NOK' });
    expect(rs.pricedOffer.taxes).toBeUndefined();
    expect(rs.pricedOffer.offerItems[0].priceDetail).toStrictEqual({
      total: { value: '2190.50', currency: 'NOK' },
      base: { value: '1800.00', currency: 'NOK' },
      taxes: { value: '390.50', currency: 'NOK' },
    });
    expect(rs.metadata.currencies).toStrictEqual([
      { key: 'NOK', application: 'Actual', decimals: 2, name: 'Norwegian krone' },
    ]);
  });

  it('OfferPriceRS: items with only a total (one as Equivalent), a FareDetail without TotalAmount, FareComponents without RBD, a SelectedSeat service, FlightRefs without ODRef', () => {
    const xml = `<OfferPriceRS xmlns="${NDC}" Version="17.2"><Document/><Success/>
  <ShoppingResponseID><ResponseID>P-78</ResponseID></ShoppingResponseID>
  <PricedOffer OfferID="PO2" Owner="DY">
    <TotalPrice><SimpleCurrencyPrice Code="NOK">2190.50</SimpleCurrencyPrice></TotalPrice>
    <FlightsOverview><FlightRef>F1</FlightRef><FlightRef PriceClassRef="PC1">F2</FlightRef></FlightsOverview>
    <OfferItem OfferItemID="I1">
      <TotalPriceDetail><TotalAmount><SimpleCurrencyPrice Code="NOK">2190.50</SimpleCurrencyPrice></TotalAmount></TotalPriceDetail>
      <Service ServiceID="S1"><PassengerRefs>T1</PassengerRefs><FlightRefs>F1 F2</FlightRefs></Service>
      <FareDetail><PassengerRefs>T1</PassengerRefs>
        <Price><BaseAmount Code="NOK">1800.00</BaseAmount><Taxes><Total Code="NOK">390.50</Total></Taxes></Price>
        <FareComponent><SegmentRefs>S1</SegmentRefs></FareComponent>
        <FareComponent><FareBasis><CabinType><CabinTypeCode/><CabinTypeName>Economy</CabinTypeName></CabinType></FareBasis></FareComponent>
      </FareDetail>
    </OfferItem>
    <OfferItem OfferItemID="I2">
      <TotalPriceDetail><TotalAmount><DetailCurrencyPrice><Equivalent>IT</Equivalent></DetailCurrencyPrice></TotalAmount></TotalPriceDetail>
      <Service ServiceID="S2"><PassengerRefs>T1</PassengerRefs><FlightRefs>F1</FlightRefs></Service>
      <Service ServiceID="S3"><PassengerRefs>T1</PassengerRefs><SelectedSeat><Seat><Row>12</Row><Column>C</Column></Seat><SegmentRef>SEG1</SegmentRef><ServiceDefinitionRef>SD1</ServiceDefinitionRef></SelectedSeat></Service>
    </OfferItem>
  </PricedOffer>
  <DataLists><OriginDestinationList>
    <OriginDestination OriginDestinationKey="OD1"><DepartureCode>OSL</DepartureCode><ArrivalCode>LGW</ArrivalCode><FlightReferences>F1</FlightReferences></OriginDestination>
    <OriginDestination OriginDestinationKey="OD2"><DepartureCode>LGW</DepartureCode><ArrivalCode>OSL</ArrivalCode><FlightReferences>F2</FlightReferences></OriginDestination>
  </OriginDestinationList></DataLists>
</OfferPriceRS>`;
    expectValidNdc(xml, 'OfferPriceRS');
    const rs = ndc.decodeOfferPriceRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    const [fare, it] = rs.pricedOffer.offerItems;
    expect(fare.priceDetail).toStrictEqual({ total: { value: '2190.50', currency: 'NOK' } });
    expect(fare.fareDetails).toStrictEqual([
      {
        passengerRefs: ['T1'],
        base: { value: '1800.00', currency: 'NOK' },
        taxes: { value: '390.50', currency: 'NOK' },
        // FareBasis (and its RBD) are optional; an empty CabinTypeCode is absent.
        fareComponents: [{ segmentRefs: { segmentKeys: ['S1'] } }, { cabinTypeName: 'Economy' }],
      },
    ]);
    expect(it.priceDetail).toStrictEqual({ otherPrice: { form: 'Equivalent', equivalent: 'IT' } });
    expect(it.services[1]).toStrictEqual({
      serviceId: 'S3',
      passengerRefs: ['T1'],
      selectedSeat: { row: 12, column: 'C', segmentRef: 'SEG1', serviceDefinitionRef: 'SD1' },
    });
    // The ODRef the message leaves out is the OriginDestination that lists the flight.
    expect(rs.pricedOffer.flightsOverview).toStrictEqual([
      { flightKey: 'F1' },
      { flightKey: 'F2', priceClassRef: 'PC1' },
    ]);
    expect(rs.pricedOffer.flightsOverview.map((f) => ndc.flightOriginDestination(f, rs.dataLists))).toStrictEqual([
      'OD1',
      'OD2',
    ]);
    // Where an amount is needed it is asked for, and a missing one is named.
    expect(() => ndc.requireMoney(fare.priceDetail.base, 'OfferItem/TotalPriceDetail/BaseAmount')).toThrow(
      new ndc.NdcMissingElementError('OfferItem/TotalPriceDetail/BaseAmount'),
    );
    expect(() =>
      ndc.requireMoney(it.priceDetail.total, 'OfferItem/TotalPriceDetail/TotalAmount', {
        otherPrice: it.priceDetail.otherPrice,
      }),
    ).toThrow(new ndc.NdcNoMoneyPriceError('OfferItem/TotalPriceDetail/TotalAmount', 'Equivalent'));
  });

  it('AirShoppingRS: offers priced as DetailCurrencyPrice/Total, in award miles, and without Code or metadata', () => {
    const item = (id: string) =>
      `<OfferItem OfferItemID="${id}"><TotalPriceDetail><TotalAmount><SimpleCurrencyPrice>99.90</SimpleCurrencyPrice></TotalAmount>` +
      `<BaseAmount>80.00</BaseAmount><Taxes><Total>19.90</Total></Taxes></TotalPriceDetail>` +
      `<Service ServiceID="S${id}"><PassengerRefs>T1</PassengerRefs><FlightRefs>F1</FlightRefs></Service></OfferItem>`;
    const xml = `<AirShoppingRS xmlns="${NDC}" Version="17.2"><Document/><Success/>
  <ShoppingResponseID><ResponseID>SR-9</ResponseID></ShoppingResponseID>
  <OffersGroup><AirlineOffers>
    <Offer OfferID="O1" Owner="DY"><TotalPrice><DetailCurrencyPrice><Total>99.90</Total><Taxes><Total>19.90</Total></Taxes></DetailCurrencyPrice></TotalPrice>${item('I1')}</Offer>
    <Offer OfferID="O2" Owner="DY"><TotalPrice><AwardPricing><Redemption><Unit>Points</Unit><Quantity>15000</Quantity></Redemption></AwardPricing></TotalPrice>${item('I2')}</Offer>
    <Offer OfferID="O3" Owner="DY">${item('I3')}</Offer>
  </AirlineOffers></OffersGroup>
</AirShoppingRS>`;
    expectValidNdc(xml, 'AirShoppingRS');
    const rs = ndc.decodeAirShoppingRs(xml);
    if (rs.kind !== 'day') throw new Error('expected the day form');
    const [detail, award, none] = rs.airlineOffers[0].offers;
    expect([detail.totalPrice, detail.otherPrice]).toStrictEqual([{ value: '99.90' }, undefined]);
    expect(award.otherPrice).toStrictEqual({ form: 'AwardPricing', redemption: { unit: 'Points', quantity: '15000' } });
    // Where the saga needs money: the currency it asked for fills in a missing Code ...
    expect(ndc.requireMoney(detail.totalPrice, 'Offer/TotalPrice', { currency: 'NOK' })).toStrictEqual({
      value: '99.90',
      currency: 'NOK',
    });
    // ... without one the missing Code is named, an award total is named by its form, a missing total as such.
    expect(() => ndc.requireMoney(detail.totalPrice, 'Offer/TotalPrice')).toThrow(
      expect.objectContaining({ code: 'NDC_MISSING_ELEMENT', element: 'Offer/TotalPrice/@Code' }),
    );
    expect(() =>
      ndc.requireMoney(award.totalPrice, 'Offer/TotalPrice', { currency: 'NOK', otherPrice: award.otherPrice }),
    ).toThrow(new ndc.NdcNoMoneyPriceError('Offer/TotalPrice', 'AwardPricing'));
    expect(() => ndc.requireMoney(none.totalPrice, 'Offer/TotalPrice', { currency: 'NOK' })).toThrow(
      'the message has no Offer/TotalPrice, which this operation needs',
    );
  });

  it('OrderViewRS: TotalOrderPrice as CombinationPricing (cash and points), a two-currency metadata names no currency', () => {
    const xml = `<OrderViewRS xmlns="${NDC}" Version="17.2"><Document/><Success/><Response>
  <Order OrderID="O-1" Owner="DY">
    <TotalOrderPrice><CombinationPricing><Partial><Currency><EncodedCurrencyAmount Code="EUR">25.00</EncodedCurrencyAmount></Currency>
      <Redemption><Unit>Points</Unit><Quantity>9000</Quantity></Redemption></Partial></CombinationPricing></TotalOrderPrice>
    <OrderItems><OrderItem OrderItemID="OI1"><PriceDetail><BaseAmount>25.00</BaseAmount></PriceDetail>
      <Service ServiceID="S1"><PassengerRef>T1</PassengerRef><SegmentRef>SEG1</SegmentRef></Service></OrderItem></OrderItems>
  </Order>
  <Metadata><Other><OtherMetadata><CurrencyMetadatas><CurrencyMetadata MetadataKey="EUR"/><CurrencyMetadata MetadataKey="NOK"/></CurrencyMetadatas></OtherMetadata></Other></Metadata>
</Response></OrderViewRS>`;
    expectValidNdc(xml, 'OrderViewRS');
    const rs = ndc.decodeOrderViewRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    const order = rs.orders[0];
    expect(order.totalOrderPrice).toBeUndefined();
    expect(order.otherPrice).toStrictEqual({
      form: 'CombinationPricing',
      redemption: { unit: 'Points', quantity: '9000' },
      cashPart: { value: '25.00', currency: 'EUR' },
    });
    expect(order.orderItems[0].base).toStrictEqual({ value: '25.00' });
    expect(() =>
      ndc.requireMoney(order.totalOrderPrice, 'Order/TotalOrderPrice', { otherPrice: order.otherPrice }),
    ).toThrow(
      'the message gives Order/TotalOrderPrice as CombinationPricing, without a money amount, which this operation needs',
    );
  });

  it('OrderCreateRQ: two Offers (one per direction), amounts without Code, prefix bound on Query', () => {
    const xml = `<OrderCreateRQ xmlns="${NDC}" Version="17.2"><Document/>
  <Party><Sender><TravelAgencySender><AgencyID>OA1</AgencyID></TravelAgencySender></Sender></Party>
  <q:Query xmlns:q="${NDC}"><q:Order>
    <q:Offer OfferID="OUT1" Owner="DY" ResponseID="SR-1"><q:TotalOfferPrice>120.00</q:TotalOfferPrice><q:OfferItem OfferItemID="OUT1-1"><q:PassengerRefs>T1</q:PassengerRefs></q:OfferItem></q:Offer>
    <q:Offer OfferID="RET1" Owner="DY" ResponseID="SR-1"><q:OfferItem OfferItemID="RET1-1"><q:PassengerRefs>T1</q:PassengerRefs></q:OfferItem></q:Offer>
  </q:Order>
  <q:Payments><q:Payment><q:Type>CC</q:Type><q:Method><q:Voucher><q:Number>tok_9</q:Number></q:Voucher></q:Method><q:Amount>240.00</q:Amount></q:Payment></q:Payments>
  </q:Query>
</OrderCreateRQ>`;
    expectValidNdc(xml, 'OrderCreateRQ');
    const rq = ndc.decodeOrderCreateRq(xml);
    expect(rq.offers.map((o) => [o.offerId, o.totalOfferPrice])).toStrictEqual([
      ['OUT1', { value: '120.00' }],
      ['RET1', undefined],
    ]);
    expect(rq.payments).toStrictEqual([{ type: 'CC', voucherNumber: 'tok_9', amount: { value: '240.00' } }]);
  });

  it('OfferPriceRQ in a partner dialect: the card token in the partner extension namespace, read with that option', () => {
    const xml = ndc.wrapInBinding(ndc.encodeOfferPriceRq(TOKEN_RQ, { extensionNamespace: PARTNER_EXT }), 'soap11');
    expectValidNdc(xml, 'OfferPriceRQ');
    expect(xml).toContain(`xmlns:ns2="${PARTNER_EXT}"`);
    expect(ndc.decodeOfferPriceRq(xml, { extensionNamespace: PARTNER_EXT }).paymentForms).toStrictEqual([
      { key: 'PFM1', token: 'tok_partner_1' },
    ]);
  });
});

const TOKEN_RQ: ndc.OfferPriceRq = {
  target: 'Test',
  version: '17.2',
  party: { agencyId: 'SAGA01' },
  offers: [
    { offerId: 'OF1', owner: 'XS', responseId: 'SR-1', offerItems: [{ offerItemId: 'OI1', passengerRefs: ['T1'] }] },
  ],
  passengers: [{ passengerId: 'T1', ptc: 'ADT' }],
  paymentForms: [{ key: 'PFM1', token: 'tok_partner_1' }],
};
