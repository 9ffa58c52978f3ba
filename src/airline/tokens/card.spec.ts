import { lookupBin } from './bin-table';
import { parseUtcDateTime } from './card';
import { maskCardNumber, newTokenId } from './tokens.service';

describe('card helpers', () => {
  it('classifies by the longest BIN prefix, unknown cards as credit', () => {
    expect(lookupBin('4000056655665556')).toEqual({ brand: 'VISA', funding: 'debit' });
    expect(lookupBin('4111111111111111')).toEqual({ brand: 'VISA', funding: 'credit' });
    expect(lookupBin('4242424242424242')).toEqual({ brand: 'VISA', funding: 'credit' });
    expect(lookupBin('5555555555554444')).toEqual({ brand: 'MASTERCARD', funding: 'credit' });
    expect(lookupBin('378282246310005')).toEqual({ brand: 'AMEX', funding: 'credit' });
    expect(lookupBin('6011111111111117')).toEqual({ brand: 'UNKNOWN', funding: 'credit' });
  });

  it('masks all but the first six and last four digits', () => {
    expect(maskCardNumber('4111111111111111')).toBe('411111******1111');
    expect(maskCardNumber('378282246310005')).toBe('378282*****0005');
  });

  it('parses only real UTC date-times without a zone', () => {
    expect(parseUtcDateTime('2026-12-01T10:00:00')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parseUtcDateTime('2026-02-29T10:00:00')).toBeUndefined();
    expect(parseUtcDateTime('2026-12-01T24:00:00')).toBeUndefined();
    expect(parseUtcDateTime('2026-12-01 10:00:00')).toBeUndefined();
    expect(parseUtcDateTime('2026-12-01T10:00:00Z')).toBeUndefined();
  });

  it('token ids are tok_ and 26 base32 characters, distinct', () => {
    const ids = new Set(Array.from({ length: 100 }, newTokenId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^tok_[a-z2-7]{26}$/);
  });
});
