import { decodeError, goldenRequestHead, xsdRoundTrip } from '../../test/support/ndc';
import { expectValidXsd } from '../../test/support/xsd';
import {
  minimalOrderCancelRq,
  orderAlreadyCancelledRs,
  orderCancelRq,
  orderCancelRs,
  orderVoidRs,
} from './fixtures/order-cancel.fixtures';
import type { OrderCancelRq, OrderCancelRs } from './ndc.model';
import { decodeOrderCancelRq, encodeOrderCancelRq } from './order-cancel-rq.codec';
import { decodeOrderCancelRs, encodeOrderCancelRs } from './order-cancel-rs.codec';
import { NDC_NS, ndcRootName } from './xml';

const rqRoundTrip = (m: OrderCancelRq) => xsdRoundTrip(m, encodeOrderCancelRq, decodeOrderCancelRq, 'OrderCancelRQ');
const rsRoundTrip = (m: OrderCancelRs) => xsdRoundTrip(m, encodeOrderCancelRs, decodeOrderCancelRs, 'OrderCancelRS');

describe('OrderCancelRQ codec', () => {
  it('encodes the exact golden XML, valid against the XSD, that decodes to the same model', () => {
    const { xml, back } = rqRoundTrip(orderCancelRq);
    expect(back).toStrictEqual(orderCancelRq);
    expect(xml).toBe(
      goldenRequestHead('OrderCancelRQ') +
        '<ExpectedRefundAmount><Total Code="GBP">120.50</Total></ExpectedRefundAmount>' +
        '<Query><Order OrderID="XS-ORD-000042" Owner="XS"/></Query>' +
        '</OrderCancelRQ>',
    );
  });

  it('round-trips the minimal form and the reason and booking-reference forms', () => {
    expect(rqRoundTrip(minimalOrderCancelRq).back).toStrictEqual(minimalOrderCancelRq);
    const full: OrderCancelRq = {
      ...orderCancelRq,
      reason: 'VOL',
      bookingReferences: [
        { id: 'K7QX3P', airlineId: 'XS' },
        { id: 'ABC123', otherId: 'GDS-1' },
      ],
    };
    const { xml, back } = rqRoundTrip(full);
    expect(back).toStrictEqual(full);
    expect(xml).toContain('<OrderCancelParameters><Reason>VOL</Reason></OrderCancelParameters><ExpectedRefundAmount>');
    const byRef: OrderCancelRq = {
      ...minimalOrderCancelRq,
      order: undefined,
      bookingReferences: [{ id: 'K7QX3P', airlineId: 'XS' }],
    };
    delete byRef.order;
    expect(rqRoundTrip(byRef).back).toStrictEqual(byRef);
  });

  it('refuses to encode a query that names no order', () => {
    const none: OrderCancelRq = { ...minimalOrderCancelRq };
    delete none.order;
    expect(() => encodeOrderCancelRq(none)).toThrow('OrderCancelRQ needs an order or booking references');
  });

  it('names a missing OrderID and a refund expectation that is not a decimal', () => {
    const xml = encodeOrderCancelRq(orderCancelRq);
    const e = decodeError(() => decodeOrderCancelRq(xml.replace(' OrderID="XS-ORD-000042"', '')));
    expect([e.code, e.path]).toEqual(['MISSING', '/OrderCancelRQ/Query/Order/@OrderID']);
    const f = decodeError(() => decodeOrderCancelRq(xml.replace('>120.50<', '>12O.50<')));
    expect([f.code, f.path]).toEqual(['INVALID_VALUE', '/OrderCancelRQ/ExpectedRefundAmount/Total']);
  });

  it('is routed by its root', () => {
    expect(ndcRootName(encodeOrderCancelRq(orderCancelRq))).toBe('OrderCancelRQ');
  });
});

describe('OrderCancelRS codec', () => {
  it('writes the fee as a Cancellation penalty and the refund as a Refund detail in ChangeFees', () => {
    const { xml, back } = rsRoundTrip(orderCancelRs);
    expect(back).toStrictEqual(orderCancelRs);
    expect(xml).toContain(
      '<Document/><Success/><Response><OrderReference>XS-ORD-000042</OrderReference>' +
        '<ChangeFees CancelFeeInd="true" RefundableInd="true"><Details>' +
        '<Detail><Type>Cancellation</Type><Amounts><Amount><CurrencyAmountValue Code="GBP">45.00</CurrencyAmountValue></Amount></Amounts></Detail>' +
        '<Detail><Type>Refund</Type><Amounts><Amount><CurrencyAmountValue Code="GBP">1203.40</CurrencyAmountValue></Amount></Amounts></Detail>' +
        '</Details></ChangeFees></Response></OrderCancelRS>',
    );
  });

  it('round-trips a void (zero fee, CancelFeeInd false), a bare reference and the error form', () => {
    const { xml, back } = rsRoundTrip(orderVoidRs);
    expect(back).toStrictEqual(orderVoidRs);
    expect(xml).toContain('<ChangeFees CancelFeeInd="false" RefundableInd="true">');
    const bare: OrderCancelRs = {
      target: 'Test',
      version: '17.2',
      timeStamp: '2026-11-21T06:00:01Z',
      kind: 'success',
      warnings: [{ text: 'refund to original form of payment', code: '1' }],
      cancellations: [{ orderReference: 'XS-ORD-1' }],
    };
    expect(rsRoundTrip(bare).back).toStrictEqual(bare);
    const err = rsRoundTrip(orderAlreadyCancelledRs);
    expect(err.back).toStrictEqual(orderAlreadyCancelledRs);
    expect(err.xml).toMatch(
      /<Document\/><Errors><Error [^>]*Code="916"[^>]*>Order XS-ORD-000042 is already cancelled<\/Error><\/Errors><\/OrderCancelRS>$/,
    );
  });

  it('keeps amounts exact and ignores percentage penalties and other detail types', () => {
    const xml =
      `<OrderCancelRS xmlns="${NDC_NS}" Version="17.2" TimeStamp="2026-11-21T06:00:01Z"><Document/><Success/><Response><OrderReference>O1</OrderReference>` +
      '<ChangeFees><Details><Detail><Type>NoShow</Type><Amounts><Amount><PercentageValue>20</PercentageValue></Amount></Amounts></Detail>' +
      '<Detail><Type>Cancellation</Type><Amounts><Amount><PercentageValue>10</PercentageValue></Amount><Amount><CurrencyAmountValue Code="EUR">0.10</CurrencyAmountValue></Amount></Amounts></Detail>' +
      '</Details></ChangeFees></Response></OrderCancelRS>';
    expectValidXsd(xml, 'OrderCancelRS');
    const rs = decodeOrderCancelRs(xml);
    expect(rs.kind === 'success' && rs.cancellations).toStrictEqual([
      { orderReference: 'O1', cancellationFee: { value: '0.10', currency: 'EUR' } },
    ]);
  });

  it('refuses a success form without Response', () => {
    const xml = encodeOrderCancelRs(orderCancelRs).replace(/<Response>.*<\/Response>/, '');
    const e = decodeError(() => decodeOrderCancelRs(xml));
    expect([e.code, e.path]).toEqual(['MISSING', '/OrderCancelRS/Response']);
  });
});
