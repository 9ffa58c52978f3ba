import { expectValidXsd } from '../../test/support/xsd';
import { decodeError, goldenRequestHead } from '../../test/support/ndc';
import { orderRetrieveRq } from './fixtures/order-retrieve-rq.fixtures';
import { decodeOrderRetrieveRq, encodeOrderRetrieveRq } from './order-retrieve-rq.codec';
import { ndcRootName } from './xml';
import { encodeOrderCreateRq } from './order-create-rq.codec';
import { minimalOrderCreateRq } from './fixtures/order-create-rq.fixtures';

describe('OrderRetrieveRQ codec', () => {
  it('encodes schema-valid XML that decodes to the same model', () => {
    const xml = encodeOrderRetrieveRq(orderRetrieveRq);
    expectValidXsd(xml, 'OrderRetrieveRQ');
    expect(decodeOrderRetrieveRq(xml)).toStrictEqual(orderRetrieveRq);
  });

  it('encodes the exact golden XML', () => {
    expect(encodeOrderRetrieveRq(orderRetrieveRq)).toBe(
      goldenRequestHead('OrderRetrieveRQ') +
        '<Query><Filters><OrderID Owner="XS">XS-ORD-000042</OrderID></Filters></Query>' +
        '</OrderRetrieveRQ>',
    );
  });

  it('names a missing Owner attribute', () => {
    const err = decodeError(() =>
      decodeOrderRetrieveRq(encodeOrderRetrieveRq(orderRetrieveRq).replace(' Owner="XS"', '')),
    );
    expect(err.code).toBe('MISSING');
    expect(err.path).toBe('/OrderRetrieveRQ/Query/Filters/OrderID/@Owner');
  });

  it('refuses a TransactionIdentifier over 32 characters (a UUID with dashes made every echoed response invalid)', () => {
    const xml = encodeOrderRetrieveRq({
      ...orderRetrieveRq,
      transactionIdentifier: '123e4567-e89b-12d3-a456-426614174000',
    });
    const e = decodeError(() => decodeOrderRetrieveRq(xml));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.path).toBe('/OrderRetrieveRQ/@TransactionIdentifier');
    const ok = encodeOrderRetrieveRq({
      ...orderRetrieveRq,
      transactionIdentifier: 'a'.repeat(32),
      correlationId: 'c'.repeat(64),
    });
    expect(decodeOrderRetrieveRq(ok).transactionIdentifier).toBe('a'.repeat(32));
    const long = encodeOrderRetrieveRq({ ...orderRetrieveRq, correlationId: 'c'.repeat(65) });
    expect(decodeError(() => decodeOrderRetrieveRq(long)).path).toBe('/OrderRetrieveRQ/@CorrelationID');
  });

  it('lets POST /retail/orders route by root element', () => {
    expect(ndcRootName(encodeOrderRetrieveRq(orderRetrieveRq))).toBe('OrderRetrieveRQ');
    expect(ndcRootName(encodeOrderCreateRq(minimalOrderCreateRq))).toBe('OrderCreateRQ');
  });
});
