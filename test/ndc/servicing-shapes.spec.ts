/**
 * Servicing messages (OrderReshopRQ/RS, OrderChangeRQ, OrderChangeNotif, ServiceListRQ and
 * SeatAvailabilityRQ for an order) in the shapes other airlines' published 17.2 guides use: a
 * reprice asked through an ExistingOrderQualifier (Iberia's style), a cancel-and-reshop with items
 * retained and a calendar window, a refund quote with the penalty in ChangeFees, a card payment
 * instead of a voucher, a notification in a SOAP envelope. Written here in those styles (our own
 * messages, not copies); each is checked with xmllint and decoded.
 */
import * as ndc from '../../src/ndc';
import { expectValidXsd } from '../support/xsd';

const NDC = ndc.NDC_NS;
const PARTY = `<Party><Sender><TravelAgencySender><Name>Partner Travel</Name><AgencyID>PT0042</AgencyID></TravelAgencySender></Sender>
  <Recipient><ORA_Recipient><AirlineID>IB</AirlineID></ORA_Recipient></Recipient></Party>`;

describe('servicing shapes of other airlines', () => {
  it('OrderReshopRQ: a reprice asked as an Add holding only the ExistingOrderQualifier (owner and passengers)', () => {
    const xml = `<OrderReshopRQ xmlns="${NDC}" Version="17.2">
  <Document><Name>NDC</Name><ReferenceVersion>17.2</ReferenceVersion></Document>${PARTY}
  <Query><OrderID>IBd88d751003aa486a86d42f63941d6ca8OP</OrderID><Reshop><OrderServicing><Add><Qualifier><ExistingOrderQualifier>
    <OrderKeys><OrderID Owner="IB">IBd88d751003aa486a86d42f63941d6ca8OP</OrderID></OrderKeys>
    <PassengerReferences>ADULT_01 INFANT_01</PassengerReferences>
  </ExistingOrderQualifier></Qualifier></Add></OrderServicing></Reshop></Query>
</OrderReshopRQ>`;
    expectValidXsd(xml, 'OrderReshopRQ');
    expect(ndc.decodeOrderReshopRq(xml)).toStrictEqual({
      target: 'Production',
      version: '17.2',
      party: { name: 'Partner Travel', agencyId: 'PT0042' },
      orderId: 'IBd88d751003aa486a86d42f63941d6ca8OP',
      owner: 'IB',
      action: { kind: 'servicing', add: {}, deleteOrderItemIds: [] },
      passengers: [],
    });
  });

  it('OrderReshopRQ: cancel and reshop with a service retained, a calendar window, cabin by PADIS code and name, prefix o:', () => {
    const xml = `<o:OrderReshopRQ xmlns:o="${NDC}" Version="17.2" TransactionIdentifier="f7d4a147">
  <o:Document/><o:Party><o:Sender><o:TravelAgencySender><o:AgencyID>PT0042</o:AgencyID></o:TravelAgencySender></o:Sender></o:Party>
  <o:Query><o:OrderID>Q7W2E9</o:OrderID>
    <o:BookingReferences><o:BookingReference><o:ID>Q7W2E9</o:ID><o:AirlineID>VS</o:AirlineID></o:BookingReference></o:BookingReferences>
    <o:Reshop><o:OrderServicing>
      <o:Add>
        <o:FlightQuery><o:OriginDestinations><o:OriginDestination>
          <o:Departure><o:AirportCode>LHR</o:AirportCode><o:Date>2027-05-02</o:Date></o:Departure>
          <o:Arrival><o:AirportCode>JFK</o:AirportCode></o:Arrival>
          <o:MarketingCarrierAirline><o:AirlineID>VS</o:AirlineID></o:MarketingCarrierAirline>
          <o:CalendarDates DaysBefore="1" DaysAfter="1"/>
        </o:OriginDestination></o:OriginDestinations></o:FlightQuery>
        <o:Preference><o:CabinPreferences><o:CabinType><o:Code>5</o:Code><o:Name>Economy</o:Name></o:CabinType></o:CabinPreferences></o:Preference>
      </o:Add>
      <o:Delete><o:OrderItem OrderItemID="VS-OI-1"><o:ServiceRetainRequestIDs>VS-SRV-SEAT-1</o:ServiceRetainRequestIDs></o:OrderItem></o:Delete>
    </o:OrderServicing></o:Reshop>
  </o:Query>
</o:OrderReshopRQ>`;
    expectValidXsd(xml, 'OrderReshopRQ');
    const rq = ndc.decodeOrderReshopRq(xml);
    expect([rq.orderId, rq.bookingReferences, rq.action]).toStrictEqual([
      'Q7W2E9',
      [{ id: 'Q7W2E9', airlineId: 'VS' }],
      {
        kind: 'servicing',
        add: {
          flightQuery: {
            kind: 'day',
            originDestinations: [{ departureCode: 'LHR', date: '2027-05-02', arrivalCode: 'JFK' }],
          },
          cabin: '5',
        },
        deleteOrderItemIds: ['VS-OI-1'],
      },
    ]);
  });

  it('OrderReshopRS: a cancel quote with DeleteOfferItems only, the due without currency code, the fee also in ChangeFees', () => {
    const xml = `<OrderReshopRS xmlns="${NDC}" Version="17.2"><Document/><Success/>
  <Response>
    <ReShoppingResponseID><Owner>IB</Owner><ResponseID>IB-RSH-88</ResponseID></ReShoppingResponseID>
    <ReshopOffers><ReshopOffer OfferID="IB-CXL-1" Owner="IB">
      <TimeLimits><OfferExpiration DateTime="2027-04-01T10:30:00Z"/></TimeLimits>
      <DeleteOfferItem OfferItemID="IB-CXL-1-1" OrderItemID="IB-OI-1"><ReshopDifferential>
        <OriginalOrderItem><Total><Amount Code="EUR">412.90</Amount></Total></OriginalOrderItem>
        <PenaltyAmount><Total><Amount Code="EUR">70.00</Amount></Total></PenaltyAmount>
        <ReshopDue><ByAirline><Total><Amount>342.90</Amount></Total></ByAirline></ReshopDue>
      </ReshopDifferential></DeleteOfferItem>
    </ReshopOffer></ReshopOffers>
    <ChangeFees CancelFeeInd="true"><Details><Detail><Type>Cancellation</Type><Amounts><Amount>
      <CurrencyAmountValue Code="EUR">70.00</CurrencyAmountValue></Amount></Amounts></Detail></Details></ChangeFees>
    <Metadata><Other><OtherMetadata><CurrencyMetadatas><CurrencyMetadata MetadataKey="EUR"><Decimals>2</Decimals></CurrencyMetadata></CurrencyMetadatas></OtherMetadata></Other></Metadata>
  </Response>
</OrderReshopRS>`;
    expectValidXsd(xml, 'OrderReshopRS');
    const rs = ndc.decodeOrderReshopRs(xml);
    if (rs.kind !== 'success' || rs.result.kind !== 'offers') throw new Error('expected offers');
    expect(rs.reshopResponseId).toBe('IB-RSH-88');
    const offer = rs.result.offers[0]!;
    expect(offer.deleteItems[0]!.differential).toStrictEqual({
      original: { value: '412.90', currency: 'EUR' },
      penalty: { value: '70.00', currency: 'EUR' },
      due: { payer: 'airline', amount: { value: '342.90', currency: 'EUR' } },
    });
    expect(ndc.reshopSummary(offer, 'EUR')).toStrictEqual({
      difference: { value: '-342.90', currency: 'EUR' },
      penalty: { value: '70.00', currency: 'EUR' },
      original: { value: '412.90', currency: 'EUR' },
    });
  });

  it('OrderChangeRQ: accept an offer with a service selection, paid by PaymentCard (no voucher), the payer and items named', () => {
    const xml = `<OrderChangeRQ xmlns="${NDC}" Version="17.2">
  <Document/>${PARTY}
  <Query><OrderID Owner="IB">IB-ORD-77</OrderID>
    <OrderServicing><AcceptOffer><Offer OfferID="IB-RSO-2" Owner="IB" ResponseID="IB-RSH-88">
      <OfferItem OfferItemID="IB-RSO-2-1"><PassengerRefs>ADULT_01</PassengerRefs>
        <ServiceSelection ServiceID="IB-SRV-1"><ServiceDefinitionID>IB-SD-MEAL</ServiceDefinitionID></ServiceSelection>
      </OfferItem>
    </Offer></AcceptOffer></OrderServicing>
    <Payments><Payment><Type>CC</Type><Method><PaymentCard><CardCode>VI</CardCode><TokenizedCardNumber>tk_44f1</TokenizedCardNumber></PaymentCard></Method>
      <Amount Code="EUR">55.00</Amount><Payer><ContactInfoRefs>CTC1</ContactInfoRefs></Payer><OrderItemID>IB-OI-1</OrderItemID></Payment></Payments>
  </Query>
</OrderChangeRQ>`;
    expectValidXsd(xml, 'OrderChangeRQ');
    const rq = ndc.decodeOrderChangeRq(xml);
    expect([rq.order, rq.acceptOffers, rq.payments]).toStrictEqual([
      { orderId: 'IB-ORD-77', owner: 'IB' },
      [
        {
          offerId: 'IB-RSO-2',
          owner: 'IB',
          responseId: 'IB-RSH-88',
          offerItems: [{ offerItemId: 'IB-RSO-2-1', passengerRefs: ['ADULT_01'] }],
        },
      ],
      [{ type: 'CC', amount: { value: '55.00', currency: 'EUR' } }],
    ]);
    expect(() => ndc.requireElement(rq.payments[0]!.voucherNumber, 'Payment/Method/Voucher/Number')).toThrow(
      ndc.NdcMissingElementError,
    );
  });

  it('OrderChangeNotif: in a SOAP 1.1 envelope, prefix bound on the Body, the original order named, no amendments', () => {
    const xml = `<soapenv:Envelope xmlns:soapenv="${ndc.SOAP11_NS}"><soapenv:Header/><soapenv:Body xmlns:n="${NDC}">
<n:OrderChangeNotif Version="17.2" SequenceNmbr="12">
  <n:Document/><n:Party><n:Sender><n:ORA_Sender><n:AirlineID>IB</n:AirlineID><n:Name>Iberia</n:Name></n:ORA_Sender></n:Sender></n:Party>
  <n:Query><n:Order OrderID="IB-ORD-77" Owner="IB">
    <n:OriginalOrder OriginalOrderID="IB-ORD-77" Owner="IB"/>
    <n:Status ScheduleChangeInd="true"><n:StatusCode>UN</n:StatusCode></n:Status>
    <n:OrderItems><n:OrderItem OrderItemID="IB-OI-1"><n:PriceDetail><n:BaseAmount Code="EUR">300.00</n:BaseAmount></n:PriceDetail>
      <n:Service ServiceID="IB-S-1"><n:PassengerRef>ADULT_01</n:PassengerRef><n:SegmentRef>IB-SEG-1</n:SegmentRef></n:Service></n:OrderItem></n:OrderItems>
  </n:Order></n:Query>
</n:OrderChangeNotif></soapenv:Body></soapenv:Envelope>`;
    expectValidXsd(ndc.unwrapSoap(xml).text, 'OrderChangeNotif');
    const notif = ndc.decodeOrderChangeNotif(xml);
    expect([
      notif.sequenceNumber,
      notif.party,
      notif.amendments,
      notif.order.statusCode,
      notif.order.scheduleChange,
    ]).toStrictEqual([12, { airlineId: 'IB' }, [], 'UN', true]);
  });

  it('ServiceListRQ and SeatAvailabilityRQ for an order, as written by an aggregator', () => {
    const services = `<ServiceListRQ xmlns="${NDC}" Version="17.2"><Document/>
  <Party><Sender><AggregatorSender><AggregatorID>AGG-9</AggregatorID></AggregatorSender></Sender></Party>
  <Query><OrderID Owner="IB" OwnerType="ORA">IB-ORD-77</OrderID></Query></ServiceListRQ>`;
    expectValidXsd(services, 'ServiceListRQ');
    expect(ndc.decodeServiceListRq(services).order).toStrictEqual({ orderId: 'IB-ORD-77', owner: 'IB' });
    const seats = `<SeatAvailabilityRQ xmlns="${NDC}" Version="17.2"><Document/>
  <Party><Sender><AggregatorSender><AggregatorID>AGG-9</AggregatorID></AggregatorSender></Sender></Party>
  <Query><Order OrderID="IB-ORD-77" Owner="IB"><SegmentID>IB-SEG-1</SegmentID></Order></Query></SeatAvailabilityRQ>`;
    expectValidXsd(seats, 'SeatAvailabilityRQ');
    expect(ndc.decodeSeatAvailabilityRq(seats).order).toStrictEqual({
      orderId: 'IB-ORD-77',
      owner: 'IB',
      passengerIds: [],
      segmentIds: ['IB-SEG-1'],
    });
  });
});
