import { luhnValid } from './luhn';

describe('luhnValid', () => {
  it.each([
    ['4111111111111111', true],
    ['5555555555554444', true],
    ['4000056655665556', true],
    ['4111111111111112', false],
    ['79927398713', true],
    ['79927398710', false],
    ['41111111a1111111', false],
    ['', false],
  ])('%s: %s', (n, ok) => expect(luhnValid(n)).toBe(ok));
});
