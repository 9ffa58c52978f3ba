import { ALIAS_WINDOW_MS, ShoppingAliasIds, parseShoppingAlias } from './shopping-alias';

describe('shopping alias ids', () => {
  const t = Date.parse('2026-11-21T06:00:00.123Z');

  it('are the base id, K, the issue time and a counter, and parse back to base and time', () => {
    const ids = new ShoppingAliasIds();
    const a = ids.next('SR0123456789ABCDEF0123', t);
    expect(a).toBe(`SR0123456789ABCDEF0123K${t.toString(16).toUpperCase().padStart(11, '0')}0001`);
    expect(a).toMatch(/^[A-Z][\w-]*$/);
    expect(parseShoppingAlias(a)).toEqual({ baseId: 'SR0123456789ABCDEF0123', issuedAtMs: t });
  });

  it('are unique within one millisecond, across the counter of 65,536', () => {
    const ids = new ShoppingAliasIds();
    const made = Array.from({ length: 70_000 }, () => ids.next('SR0001', t));
    expect(new Set(made.slice(0, 65_536)).size).toBe(65_536);
    expect(made.every((id) => parseShoppingAlias(id)?.baseId === 'SR0001')).toBe(true);
  });

  it('are never a base id: fresh, sequential and short ids do not parse', () => {
    for (const id of ['SR0123456789ABCDEF0123', 'SR0001', 'K0123456789ABCDE', 'SR0001K0123456789ABCD', 'SR0001k0123456789ABCDEF', 'SR0001K0123456789ABCDEG']) {
      expect(parseShoppingAlias(id)).toBeUndefined();
    }
  });

  it('allow the issue window of the response cache (30 s) with room to spare', () => {
    expect(ALIAS_WINDOW_MS).toBeGreaterThanOrEqual(60_000);
  });
});
