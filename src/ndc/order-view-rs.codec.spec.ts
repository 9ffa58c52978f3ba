import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { xsdRoundTrip } from '../../test/support/ndc';
import {
  HOLD_PAYMENT_TIME_LIMIT,
  HOLD_PRICE_GUARANTEE_TIME_LIMIT,
  heldOrderViewRs,
  orderNotFoundRs,
  orderViewRs,
} from './fixtures/order-view-rs.fixtures';
import { NdcMissingElementError, requireElement } from './require-element';
import type { OrderViewRs } from './ndc.model';
import { decodeOrderViewRs, encodeOrderViewRs } from './order-view-rs.codec';

const roundTrip = (msg: OrderViewRs) => xsdRoundTrip(msg, encodeOrderViewRs, decodeOrderViewRs, 'OrderViewRS');

describe('OrderViewRS codec', () => {
  it('round-trips a created order (references, total, status, payment, items incl. CCF2, commission, passengers, contacts)', () => {
    const { xml, back } = roundTrip(orderViewRs);
    expect(back).toEqual(orderViewRs);
    expect(xml).toContain(
      '<Document/><Success/><Response><Order OrderID="ORD-9K2Q7X" Owner="XS" WebAddressID="https://manage.saga-air.test/orders/ORD-9K2Q7X?lang=en&amp;amp=1">',
    );
    expect(xml).toContain(
      '<BookingReferences><BookingReference><ID>K7QX3P</ID><AirlineID>XS</AirlineID></BookingReference></BookingReferences>',
    );
    expect(xml).toContain(
      '<TotalOrderPrice><SimpleCurrencyPrice Code="GBP">2984.21</SimpleCurrencyPrice></TotalOrderPrice><Status><StatusCode>OK</StatusCode></Status>',
    );
    expect(xml).toContain(
      '<Payment><Type>CC</Type><Amount><SimpleCurrencyPrice Code="GBP">2984.21</SimpleCurrencyPrice></Amount><Method><VoucherMethod><Number>tok_test_4f9a0c2e71</Number></VoucherMethod></Method></Payment>',
    );
    expect(xml).toContain(
      '<Service ServiceID="SERVICE__CCF2"><PassengerRef>PAX__ADT01</PassengerRef><ServiceDefinitionRef>SD__CCF2</ServiceDefinitionRef></Service>',
    );
    expect(xml).toContain('<ServiceDefinitionRef SegmentRef="SEG__LHR_JFK_0101">SD__XST-1</ServiceDefinitionRef>');
    expect(xml).toContain('<Commission><Amount Code="GBP">59.68</Amount></Commission>');
    expect(xml).toContain('<ContactInfoRef>CTC__1</ContactInfoRef>');
  });

  it('round-trips a held order: no payments, the payment time limit on the order, payment and price guarantee limits on each item', () => {
    const { xml, back } = roundTrip(heldOrderViewRs);
    expect(back).toStrictEqual(heldOrderViewRs);
    expect(xml).not.toContain('<Payments>');
    expect(xml).toContain(
      '<Status><StatusCode>HD</StatusCode></Status>' +
        `<TimeLimits><PaymentTimeLimit DateTime="${HOLD_PAYMENT_TIME_LIMIT}"/></TimeLimits><OrderItems>`,
    );
    expect(xml).toContain(
      '<ServiceID="OI__ORD-9K2Q7X-OUT-PAX__ADT01-S1">'.replace('<ServiceID', '<Service ServiceID') +
        '<PassengerRef>PAX__ADT01</PassengerRef><SegmentRef>SEG__LHR_JFK_0101</SegmentRef></Service>',
    );
    expect(xml).toContain(
      `</Service><TimeLimits><PaymentTimeLimit Timestamp="${HOLD_PAYMENT_TIME_LIMIT}"/>` +
        `<PriceGuaranteeTimeLimits Timestamp="${HOLD_PRICE_GUARANTEE_TIME_LIMIT}"/></TimeLimits></OrderItem>`,
    );
  });

  it('reads time limits given as Timestamp or ShortDate, and the schedule change indicator of Status', () => {
    const xml = encodeOrderViewRs(heldOrderViewRs)
      .replace(
        `<PaymentTimeLimit DateTime="${HOLD_PAYMENT_TIME_LIMIT}"/>`,
        '<PaymentTimeLimit ShortDate="2026-11-22"/>',
      )
      .replace('<Status>', '<Status ScheduleChangeInd="true">')
      .replace(/<TimeLimits><PaymentTimeLimit Timestamp="[^"]*"\/>/, '<TimeLimits>');
    const rs = decodeOrderViewRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    const order = rs.orders[0]!;
    expect([order.paymentTimeLimit, order.scheduleChange]).toStrictEqual(['2026-11-22', true]);
    expect(order.orderItems[0]).not.toHaveProperty('paymentTimeLimit');
    expect(order.orderItems[0]!.priceGuaranteeTimeLimit).toBe(HOLD_PRICE_GUARANTEE_TIME_LIMIT);
    expect(order.orderItems[1]!.paymentTimeLimit).toBe(HOLD_PAYMENT_TIME_LIMIT);
    const again = roundTrip({ ...rs, orders: [order] });
    expect(again.xml).toContain('<Status ScheduleChangeInd="true"><StatusCode>HD</StatusCode></Status>');
    expect(again.xml).toContain('<TimeLimits><PaymentTimeLimit ShortDate="2026-11-22"/></TimeLimits>');
  });

  it('round-trips the 913 error form, which keeps Document', () => {
    const { xml, back } = roundTrip(orderNotFoundRs);
    expect(back).toEqual(orderNotFoundRs);
    expect(xml).toMatch(
      /<Document\/><Errors><Error [^>]*Code="913"[^>]*>Order ORD-404404 could not be found<\/Error><\/Errors><\/OrderViewRS>$/,
    );
    expect(xml).toContain('ShortText="Requested item or data not found or does not exist in processing host"');
    expect(xml).toContain('Status="Complete"');
  });

  it('encodes the 913 error exactly as the golden file, and decodes the indented golden file', () => {
    const golden = readFileSync(join(__dirname, 'fixtures', 'order-view-rs.not-found.golden.xml'), 'utf8');
    expect(encodeOrderViewRs(orderNotFoundRs)).toBe(golden.trim().replace(/>\n</g, '><'));
    expect(decodeOrderViewRs(Buffer.from(golden, 'utf8'))).toEqual(orderNotFoundRs);
  });

  it('decodes a pretty-printed, commented order view', () => {
    const xml = encodeOrderViewRs(orderViewRs)
      .replace(/></g, '>\n    <')
      .replace('<Response>', '<Response><!-- order follows -->');
    expect(decodeOrderViewRs(xml)).toEqual(orderViewRs);
  });

  it('refuses journeys metadata, which OrderViewRS has no place for', () => {
    const ok = orderViewRs as Extract<OrderViewRs, { kind: 'success' }>;
    expect(() => encodeOrderViewRs({ ...ok, metadata: { journeys: [{ key: 'J1', transfer: false }] } })).toThrow(
      'journeys metadata is not allowed',
    );
  });

  it('decodes an order without Status (optional in the XSD); the use names Order/Status', () => {
    const xml = encodeOrderViewRs(orderViewRs).replace('<Status><StatusCode>OK</StatusCode></Status>', '');
    const rs = decodeOrderViewRs(xml);
    if (rs.kind !== 'success') throw new Error('expected the success form');
    expect(rs.orders[0].statusCode).toBeUndefined();
    let err: unknown;
    try {
      requireElement(rs.orders[0].statusCode, 'Order/Status');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NdcMissingElementError);
    expect(err).toMatchObject({
      code: 'NDC_MISSING_ELEMENT',
      element: 'Order/Status',
      message: 'the message has no Order/Status, which this operation needs',
    });
  });
});
