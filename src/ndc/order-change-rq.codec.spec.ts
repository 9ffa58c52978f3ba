import { decodeError, goldenRequestHead, xsdRoundTrip } from '../../test/support/ndc';
import {
  acceptChangeOfferRq,
  acceptRepricedOrderRq,
  addExtrasChangeRq,
  payHeldOrderRq,
  removePassengerChangeRq,
} from './fixtures/order-change.fixtures';
import { decodeOrderChangeRq, encodeOrderChangeRq } from './order-change-rq.codec';
import type { OrderChangeRq } from './servicing.model';
import { ndcRootName } from './xml';

const roundTrip = (m: OrderChangeRq) => xsdRoundTrip(m, encodeOrderChangeRq, decodeOrderChangeRq, 'OrderChangeRQ');
const SPA =
  '<OrderChangeParameters><Alerts><Alert><SecurePaymentAlert><URLs>' +
  '<FailURL>https://agency.example/booking/fail?session=9f2&amp;step=3ds</FailURL>' +
  '<TermURL>https://agency.example/booking/done?session=9f2</TermURL></URLs>' +
  '<Details><CustomerDevice><IP_Address>203.0.113.17</IP_Address><BrowserUserAgentHeader>';

describe('OrderChangeRQ codec', () => {
  it.each<[string, OrderChangeRq]>([
    ['accept a reshop offer, pay the difference, 3-D Secure alert, passengers', acceptChangeOfferRq],
    ['accept à-la-carte offers of a bag and a seat', addExtrasChangeRq],
    ['pay a held order with a card authenticated beforehand', payHeldOrderRq],
    ['accept a reprice and pay', acceptRepricedOrderRq],
    ["delete one passenger's items, with a reason", removePassengerChangeRq],
  ])('%s: encodes schema-valid XML that decodes to the same model', (_name, model) => {
    const { xml, back } = roundTrip(model);
    expect(back).toStrictEqual(model);
    expect(ndcRootName(xml)).toBe('OrderChangeRQ');
  });

  it('accepting an offer: the alert in OrderChangeParameters, the offer in Query/OrderServicing/AcceptOffer, then Payments', () => {
    const xml = encodeOrderChangeRq(acceptChangeOfferRq);
    expect(xml).toContain(`</Party>${SPA}`);
    expect(xml).toContain(
      '</OrderChangeParameters><Query><OrderID Owner="XS">ORD-9K2Q7X</OrderID><OrderServicing><AcceptOffer>' +
        '<Offer OfferID="RSO__OUT_0312_PLUS" Owner="XS" ResponseID="RSH-20261121-0007"><TotalOfferPrice Code="GBP">1847.80</TotalOfferPrice>' +
        '<OfferItem OfferItemID="RSO__OUT_0312_PLUS-ADD-1"><PassengerRefs>PAX__ADT01</PassengerRefs></OfferItem>',
    );
    expect(xml).toContain(
      '</Offer></AcceptOffer></OrderServicing><Payments><Payment><Type>CC</Type><Method><Voucher><Number>tok_c4a9e1f07b2d</Number>' +
        '</Voucher></Method><Amount Code="GBP">406.50</Amount></Payment></Payments></Query><DataLists><PassengerList>',
    );
    expect(encodeOrderChangeRq(addExtrasChangeRq)).toContain(
      '<OfferItem OfferItemID="ALC__SEAT_XL_OUT"><PassengerRefs>PAX__ADT01</PassengerRefs>' +
        '<ALaCarteSelection><Quantity>1</Quantity><SegmentID>SEG__LHR_JFK_0101</SegmentID></ALaCarteSelection>' +
        '<SeatSelection><Row>21</Row><Column>C</Column></SeatSelection></OfferItem>',
    );
  });

  it('a payment alone, a reprice accepted, a deletion: exact XML (golden)', () => {
    expect(encodeOrderChangeRq(acceptRepricedOrderRq)).toBe(
      goldenRequestHead('OrderChangeRQ') +
        '<Query><OrderID Owner="XS">ORD-9K2Q7X</OrderID><AcceptRepricedOrder><ResponseID>RSH-20261121-0007</ResponseID></AcceptRepricedOrder>' +
        '<Payments><Payment><Type>CC</Type><Method><Voucher><Number>tok_5e0b7a1c93d4</Number></Voucher></Method>' +
        '<Amount Code="GBP">3005.70</Amount></Payment></Payments></Query></OrderChangeRQ>',
    );
    expect(encodeOrderChangeRq(removePassengerChangeRq)).toBe(
      goldenRequestHead('OrderChangeRQ') +
        '<OrderChangeParameters><Reason>PAX</Reason></OrderChangeParameters>' +
        '<Query><OrderID Owner="XS">ORD-9K2Q7X</OrderID><OrderServicing><Delete><OrderItemID>OI__ORD-9K2Q7X-OUT-PAX__ADT02</OrderItemID>' +
        '<OrderItemID>OI__ORD-9K2Q7X-RET-PAX__ADT02</OrderItemID></Delete></OrderServicing></Query></OrderChangeRQ>',
    );
    const pay = encodeOrderChangeRq(payHeldOrderRq);
    expect(pay).toContain(
      '<Reference><ACS_TxnReference>8a880dc0-d2d2-4067-bcb1-b08d1690b26e</ACS_TxnReference></Reference>',
    );
    expect(pay).toContain(
      '<ProcessingInfos><ProcessingInfo><CAVV>AAABBJg0VhI0VniQEjRWAAAAAAA=</CAVV><CustomerAuthStatus>Y</CustomerAuthStatus><ECI>05</ECI>' +
        '</ProcessingInfo></ProcessingInfos></SecurePaymentAlert></Alert></Alerts></OrderChangeParameters>' +
        '<Query><OrderID Owner="XS">ORD-9K2Q7X</OrderID><Payments>',
    );
  });

  it('refuses AcceptRepricedOrder beside offers or deletions (an XSD choice)', () => {
    expect(() => encodeOrderChangeRq({ ...removePassengerChangeRq, acceptRepricedOrder: 'RSH-20261121-0007' })).toThrow(
      'OrderChangeRQ: AcceptRepricedOrder goes alone, without offers or deletions (XSD choice)',
    );
  });

  it('reads liberally: an OrderID without Owner, amounts taking the currency of OrderChangeMetadata, PassengerServicing as nothing to do', () => {
    const xml = encodeOrderChangeRq(acceptRepricedOrderRq)
      .replace('<OrderID Owner="XS">', '<OrderID>')
      .replace('<Amount Code="GBP">3005.70</Amount>', '<Amount>3005.70</Amount>')
      .replace(
        '</Payments></Query>',
        '</Payments><OrderChangeMetadata><Other><OtherMetadata><CurrencyMetadatas><CurrencyMetadata MetadataKey="GBP">' +
          '<Decimals>2</Decimals></CurrencyMetadata></CurrencyMetadatas></OtherMetadata></Other></OrderChangeMetadata></Query>',
      );
    const rq = decodeOrderChangeRq(xml);
    expect(rq.order).toStrictEqual({ orderId: 'ORD-9K2Q7X' });
    expect(rq.payments[0]!.amount).toStrictEqual({ value: '3005.70', currency: 'GBP' });
    const names = xml.replace(
      /<AcceptRepricedOrder>.*<\/AcceptRepricedOrder>/,
      '<PassengerServicing><New PassengerID="PAX__ADT02"><Individual><Surname>Smyth</Surname></Individual>' +
        '<ActionType>Update</ActionType></New></PassengerServicing>',
    );
    const passengerServicing = decodeOrderChangeRq(names);
    expect([
      passengerServicing.acceptOffers,
      passengerServicing.deleteOrderItemIds,
      passengerServicing.acceptRepricedOrder,
    ]).toStrictEqual([[], [], undefined]);
    const noId = decodeError(() => decodeOrderChangeRq(xml.replace('<OrderID>ORD-9K2Q7X</OrderID>', '<OrderID/>')));
    expect([noId.code, noId.path]).toStrictEqual(['MISSING', '/OrderChangeRQ/Query/OrderID']);
  });
});
