import { extrasAsked } from './booking.extras';

describe('extrasAsked (the Extras search attribute)', () => {
  it('names bags, seats or both; nothing for an intent without extras', () => {
    const bag = { passenger: 0, code: 'YN1' as const, direction: 'both' as const };
    expect(extrasAsked(undefined)).toBeUndefined();
    expect(extrasAsked({})).toBeUndefined();
    expect(extrasAsked({ bags: [] })).toBeUndefined();
    expect(extrasAsked({ bags: [bag] })).toBe('bags');
    expect(extrasAsked({ seats: { mode: 'auto' } })).toBe('seats');
    expect(extrasAsked({ bags: [bag], seats: { mode: 'choose' } })).toBe('bags+seats');
  });
});
