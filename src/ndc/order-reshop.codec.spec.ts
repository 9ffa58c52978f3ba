import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeError, goldenRequestHead, xsdRoundTrip } from '../../test/support/ndc';
import {
  changeOffersRs,
  changeReshopRq,
  CHANGE_OFFER_ID,
  noPriceChangeRs,
  passengerRefundQuoteRq,
  passengerRefundQuoteRs,
  refundQuoteRq,
  refundQuoteRs,
  repricedRs,
  repriceRq,
  reshopErrorRs,
} from './fixtures/order-reshop.fixtures';
import { decodeOrderReshopRq, encodeOrderReshopRq } from './order-reshop-rq.codec';
import { decodeOrderReshopRs, encodeOrderReshopRs } from './order-reshop-rs.codec';
import type { OrderReshopRq, OrderReshopRs, ReshopOffer } from './servicing.model';
import { ndcRootName } from './xml';

const rqRoundTrip = (m: OrderReshopRq) => xsdRoundTrip(m, encodeOrderReshopRq, decodeOrderReshopRq, 'OrderReshopRQ');
const rsRoundTrip = (m: OrderReshopRs) => xsdRoundTrip(m, encodeOrderReshopRs, decodeOrderReshopRs, 'OrderReshopRS');
const ORDER = '<Query><OrderID>ORD-9K2Q7X</OrderID>';

/** The one offer of a success form with offers. */
function offerOf(rs: OrderReshopRs): ReshopOffer {
  if (rs.kind !== 'success' || rs.result.kind !== 'offers') throw new Error('expected offers');
  return rs.result.offers[0]!;
}

describe('OrderReshopRQ codec', () => {
  it('reshop for a change: Add (flight query, owner, fare code and cabin) and Delete of the outbound items, golden', () => {
    const { xml, back } = rqRoundTrip(changeReshopRq);
    expect(back).toStrictEqual(changeReshopRq);
    expect(xml).toBe(
      goldenRequestHead('OrderReshopRQ') +
        ORDER +
        '<Reshop><OrderServicing><Add><FlightQuery><OriginDestinations><OriginDestination>' +
        '<Departure><AirportCode>LHR</AirportCode><Date>2027-03-12</Date></Departure><Arrival><AirportCode>JFK</AirportCode></Arrival>' +
        '</OriginDestination></OriginDestinations></FlightQuery>' +
        '<Qualifier><ExistingOrderQualifier><OrderKeys><OrderID Owner="XS">ORD-9K2Q7X</OrderID></OrderKeys>' +
        '<PassengerReferences>PAX__ADT01 PAX__ADT02 PAX__CHD01 PAX__INF01</PassengerReferences></ExistingOrderQualifier></Qualifier>' +
        '<Preference><FarePreferences><FareCodes><Code><Code>PLUS</Code></Code></FareCodes></FarePreferences>' +
        '<CabinPreferences><CabinType><Code>M</Code></CabinType></CabinPreferences></Preference></Add>' +
        '<Delete><OrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT01"/><OrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT02"/>' +
        '<OrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__CHD01"/><OrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__INF01"/></Delete>' +
        '</OrderServicing></Reshop></Query>' +
        '<DataLists><PassengerList><Passenger PassengerID="PAX__ADT01"><PTC>ADT</PTC></Passenger>' +
        '<Passenger PassengerID="PAX__ADT02"><PTC>ADT</PTC></Passenger><Passenger PassengerID="PAX__CHD01"><PTC>CHD</PTC></Passenger>' +
        '<Passenger PassengerID="PAX__INF01"><PTC>INF</PTC></Passenger></PassengerList></DataLists></OrderReshopRQ>',
    );
    expect(ndcRootName(xml)).toBe('OrderReshopRQ');
  });

  it("refund quotes (every item, one passenger's) are a Delete alone; a reprice names items or none, golden", () => {
    const all = rqRoundTrip(refundQuoteRq);
    expect(all.back).toStrictEqual(refundQuoteRq);
    expect(all.xml).toContain(
      `${ORDER}<Reshop><OrderServicing><Delete><OrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT01"/>`,
    );
    expect(all.xml.match(/<OrderItem /g)).toHaveLength(9);
    const one = rqRoundTrip(passengerRefundQuoteRq);
    expect(one.back).toStrictEqual(passengerRefundQuoteRq);
    expect(one.xml).toContain(
      '<Delete><OrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT02"/><OrderItem OrderItemID="OI__ORD-9K2Q7X-RET-PAX__ADT02"/></Delete>',
    );
    const reprice = rqRoundTrip(repriceRq);
    expect(reprice.back).toStrictEqual(repriceRq);
    expect(reprice.xml).toBe(`${goldenRequestHead('OrderReshopRQ')}${ORDER}<Reprice/></Query></OrderReshopRQ>`);
    const some: OrderReshopRq = { ...repriceRq, action: { kind: 'reprice', orderItemIds: ['OI__1', 'OI__2'] } };
    expect(rqRoundTrip(some).xml).toContain(
      '<Reprice><OrderItemID>OI__1</OrderItemID><OrderItemID>OI__2</OrderItemID></Reprice>',
    );
  });

  it('a calendar flight query and the Add passengers; refuses an owner without an Add and a name change', () => {
    const calendar: OrderReshopRq = {
      ...changeReshopRq,
      action: {
        kind: 'servicing',
        add: {
          flightQuery: {
            kind: 'calendar',
            originDestinations: [
              { departureCode: 'LHR', date: '2027-03-12', daysBefore: 2, daysAfter: 3, arrivalCode: 'JFK' },
            ],
          },
          passengerRefs: ['PAX__ADT02'],
        },
        deleteOrderItemIds: [],
      },
    };
    delete calendar.owner;
    const { xml, back } = rqRoundTrip(calendar);
    expect(back).toStrictEqual(calendar);
    expect(xml).toContain(
      '<Add><FlightQuery><Affinity><OriginDestination><AirportCityDeparture><LocationCode>LHR</LocationCode><Date>2027-03-12</Date>' +
        '<LeadPricing><LeadDatePeriod After="P3D" Before="P2D"/></LeadPricing></AirportCityDeparture>' +
        '<AirportCityArrival><LocationCode>JFK</LocationCode></AirportCityArrival></OriginDestination></Affinity></FlightQuery>' +
        '<Passengers><PassengerReferences>PAX__ADT02</PassengerReferences></Passengers></Add></OrderServicing>',
    );
    expect(() => encodeOrderReshopRq({ ...repriceRq, owner: 'XS' })).toThrow(
      'OrderReshopRQ: owner travels only with an add (ExistingOrderQualifier)',
    );
    const named = encodeOrderReshopRq(repriceRq).replace(
      '<Reprice/>',
      '<Reshop><NameChange><PassengerID>PAX__ADT02</PassengerID><Surname>Smyth</Surname></NameChange></Reshop>',
    );
    expect(decodeOrderReshopRq(named).action).toStrictEqual({ kind: 'nameChange', passengerId: 'PAX__ADT02' });
    expect(() => encodeOrderReshopRq(decodeOrderReshopRq(named))).toThrow(
      'OrderReshopRQ: a name change is decoded only',
    );
  });

  it('names what is missing: the OrderID, an OrderItemID of Delete, the Reshop of a Query without action', () => {
    const xml = encodeOrderReshopRq(refundQuoteRq);
    const noId = decodeError(() => decodeOrderReshopRq(xml.replace('<OrderID>ORD-9K2Q7X</OrderID>', '<OrderID/>')));
    expect([noId.code, noId.path]).toStrictEqual(['MISSING', '/OrderReshopRQ/Query/OrderID']);
    const noItem = decodeError(() =>
      decodeOrderReshopRq(xml.replace(' OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT02"', '')),
    );
    expect([noItem.code, noItem.path]).toStrictEqual([
      'MISSING',
      '/OrderReshopRQ/Query/Reshop/OrderServicing/Delete/OrderItem[2]/@OrderItemID',
    ]);
    const noAction = decodeError(() => decodeOrderReshopRq(xml.replace(/<Reshop>.*<\/Reshop>/, '')));
    expect([noAction.code, noAction.path]).toStrictEqual(['MISSING', '/OrderReshopRQ/Query/Reshop']);
  });
});

describe('OrderReshopRS codec', () => {
  it('change offers: encodes exactly the golden file (valid), decodes it back; each new item with its differential', () => {
    const golden = readFileSync(join(__dirname, 'fixtures', 'order-reshop-rs.change.golden.xml'), 'utf8');
    const { xml, back } = rsRoundTrip(changeOffersRs);
    expect(xml).toBe(golden.trim().replace(/>\n</g, '><'));
    expect(back).toStrictEqual(changeOffersRs);
    expect(decodeOrderReshopRs(golden)).toStrictEqual(changeOffersRs);
    expect(xml).toContain(
      '<ReshopDifferential><OriginalOrderItem><Total><Amount Code="GBP">535.40</Amount></Total></OriginalOrderItem>' +
        '<NewOfferItem><Total><Amount Code="GBP">625.40</Amount></Total></NewOfferItem>' +
        '<PenaltyAmount><Total><Amount Code="GBP">50.00</Amount></Total></PenaltyAmount>' +
        '<ReshopDue><ByPassenger><Total><Amount Code="GBP">140.00</Amount></Total></ByPassenger></ReshopDue></ReshopDifferential></AddOfferItem>',
    );
  });

  it('refund quotes: DeleteOfferItems with what was paid, the penalty and the refund ByAirline; valid and read back', () => {
    for (const quote of [refundQuoteRs, passengerRefundQuoteRs]) {
      const { xml, back } = rsRoundTrip(quote);
      expect(back).toStrictEqual(quote);
      expect(xml).not.toContain('<AddOfferItem');
    }
    const { xml } = rsRoundTrip(passengerRefundQuoteRs);
    expect(xml).toContain(
      '<DeleteOfferItem OfferItemID="RSO__REFUND_ADT02-DEL-1" OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT02"><ReshopDifferential>' +
        '<OriginalOrderItem><Total><Amount Code="GBP">535.40</Amount></Total></OriginalOrderItem>' +
        '<PenaltyAmount><Total><Amount Code="GBP">75.00</Amount></Total></PenaltyAmount>' +
        '<ReshopDue><ByAirline><Total><Amount Code="GBP">460.40</Amount></Total></ByAirline></ReshopDue></ReshopDifferential></DeleteOfferItem>',
    );
    expect(xml).toContain(
      '<Penalty CancelFeeInd="true" RefundableInd="true"><Details><Detail><Type>Cancellation</Type>',
    );
  });

  it('the reprice result: a RepricedOffer beside the original items, NoPriceChangeInd, and the error form (Document, Errors)', () => {
    const repriced = rsRoundTrip(repricedRs);
    expect(repriced.back).toStrictEqual(repricedRs);
    expect(repriced.xml).toContain(
      '<RepricedOffer OfferID="RPO__ORD-9K2Q7X" Owner="XS"><RepricedOfferItem OfferItemID="RPO__ORD-9K2Q7X-1"><TotalPriceDetail>' +
        '<TotalAmount><SimpleCurrencyPrice Code="GBP">545.40</SimpleCurrencyPrice></TotalAmount><BaseAmount Code="GBP">390.00</BaseAmount>' +
        '<Taxes><Total Code="GBP">155.40</Total></Taxes></TotalPriceDetail><OriginalOrderItem OrderItemID="OI__ORD-9K2Q7X-OUT-PAX__ADT01">',
    );
    const same = rsRoundTrip(noPriceChangeRs);
    expect(same.back).toStrictEqual(noPriceChangeRs);
    expect(same.xml).toContain(
      '<Response><ReShoppingResponseID><ResponseID>RSH-20261121-0007</ResponseID></ReShoppingResponseID><NoPriceChangeInd>true</NoPriceChangeInd></Response>',
    );
    const error = rsRoundTrip(reshopErrorRs);
    expect(error.back).toStrictEqual(reshopErrorRs);
    expect(error.xml).toMatch(
      /<Document\/><Errors><Error [^>]*Code="710"[^>]*>No flights LHR-JFK on 2027-03-12<\/Error><\/Errors><\/OrderReshopRS>$/,
    );
  });

  it('reads liberally: an expiry as Timestamp, a due without amount, a differential with only its due, an empty ReshopOffers', () => {
    const xml = encodeOrderReshopRs(passengerRefundQuoteRs)
      .replace('<OfferExpiration DateTime=', '<OfferExpiration Timestamp=')
      .replace(
        /<ByAirline><Total><Amount Code="GBP">460.40<\/Amount><\/Total><\/ByAirline>/,
        '<ByAirline><Total/></ByAirline>',
      )
      .replace(
        /<ReshopDifferential><OriginalOrderItem><Total><Amount Code="GBP">535.40<\/Amount><\/Total><\/OriginalOrderItem><PenaltyAmount>.*?<\/PenaltyAmount>/,
        '<ReshopDifferential>',
      );
    const offer = offerOf(decodeOrderReshopRs(xml));
    expect(offer.expiresAt).toBe('2026-11-21T06:15:00Z');
    expect(offer.deleteItems[0]!.differential).toStrictEqual({ due: { payer: 'airline' } });
    const empty = encodeOrderReshopRs(passengerRefundQuoteRs).replace(
      /<ReshopOffers>.*<\/ReshopOffers>/,
      '<ReshopOffers/>',
    );
    const rs = decodeOrderReshopRs(empty);
    expect(rs.kind === 'success' && rs.result).toStrictEqual({ kind: 'offers', offers: [] });
    const noResult = decodeError(() => decodeOrderReshopRs(empty.replace('<ReshopOffers/>', '')));
    expect([noResult.code, noResult.path]).toStrictEqual(['MISSING', '/OrderReshopRS/Response/ReshopOffers']);
    expect(offerOf(changeOffersRs).offerId).toBe(CHANGE_OFFER_ID);
  });
});
