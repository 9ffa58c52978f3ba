import { withSequenceNumber } from './order-view-version';

describe('withSequenceNumber', () => {
  it('writes the version on the root element, prefixed or not, and nothing without one', () => {
    const xml = '<?xml version="1.0"?><OrderViewRS Version="17.2"><Document/></OrderViewRS>';
    expect(withSequenceNumber(xml, 'OrderViewRS', 3)).toBe(
      '<?xml version="1.0"?><OrderViewRS SequenceNmbr="3" Version="17.2"><Document/></OrderViewRS>',
    );
    expect(withSequenceNumber('<n:OrderViewRS xmlns:n="x"/>', 'OrderViewRS', 0)).toBe(
      '<n:OrderViewRS SequenceNmbr="0" xmlns:n="x"/>',
    );
    expect(withSequenceNumber(xml, 'OrderViewRS', undefined)).toBe(xml);
  });

  it('refuses a version the schema cannot carry, or a document without the root', () => {
    expect(() => withSequenceNumber('<OrderViewRS/>', 'OrderViewRS', -1)).toThrow('not a non-negative integer');
    expect(() => withSequenceNumber('<OrderViewRSX/>', 'OrderViewRS', 1)).toThrow('no OrderViewRS element');
  });
});
