import { timeOrderedIds } from './shopping-cache';

describe('timeOrderedIds', () => {
  it('gives SR + 20 upper-case hex digits, ascending and unique within one millisecond', () => {
    const ids = timeOrderedIds(() => 0x19a2b3c4d5e);
    const made = Array.from({ length: 100 }, () => ids.next('SR'));
    for (const id of made) expect(id).toMatch(/^SR19A2B3C4D5E[0-9A-F]{9}$/);
    expect(made.slice(0, 2).map((id) => id.slice(13, 16))).toEqual(['001', '002']);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(100);
  });

  it('orders ids of later milliseconds after earlier ones', () => {
    let t = 1_700_000_000_000;
    const ids = timeOrderedIds(() => t);
    const a = ids.next('SR');
    t += 1;
    const b = ids.next('SR');
    expect(a < b).toBe(true);
  });
});
