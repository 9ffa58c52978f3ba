import { add, compare, multiply, percentOf, subtract, times, toFixed, DecimalFormatError } from './decimal';

describe('decimal', () => {
  it('adds without float error', () => {
    expect(add(2, '0.1', '0.2')).toBe('0.30');
    expect(add(2, '100', '-0.01')).toBe('99.99');
  });
  it('rounds half away from zero', () => {
    expect(toFixed('1.005', 2)).toBe('1.01');
    expect(toFixed('-1.005', 2)).toBe('-1.01');
    expect(toFixed('1.004', 2)).toBe('1.00');
  });
  it('multiplies and takes percentages exactly', () => {
    expect(times('33.33', 3, 2)).toBe('99.99');
    expect(multiply('123.45', '0.9', 2)).toBe('111.11');
    expect(percentOf('200.00', '1.5', 2)).toBe('3.00');
    expect(subtract('10', '0.01', 2)).toBe('9.99');
  });
  it('compares numerically', () => {
    expect(compare('10.0', '10.00')).toBe(0);
    expect(compare('9.99', '10')).toBe(-1);
    expect(compare('-1', '-2')).toBe(1);
  });
  it('reads signs, leading zeros and long fractions', () => {
    expect(toFixed('-007.50', 1)).toBe('-7.5');
    expect(toFixed('-0.004', 2)).toBe('0.00');
    expect(add(2, '0012', '-0000.5')).toBe('11.50');
    expect(toFixed('0.0000000000000000000005', 21)).toBe('0.000000000000000000001');
    expect(times('1', 2, 20)).toBe('2.' + '0'.repeat(20));
  });
  it('rejects non-decimals', () => {
    expect(() => add(2, '1e3')).toThrow(DecimalFormatError);
    expect(() => add(2, 'NaN')).toThrow(DecimalFormatError);
  });
});
