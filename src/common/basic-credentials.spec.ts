import { BasicCredentials } from './basic-credentials';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('BasicCredentials', () => {
  const expected = new BasicCredentials('agency', 'agency-secret');

  it('accepts the usual header and other spellings of the same credentials', () => {
    expect(expected.matches(`Basic ${b64('agency:agency-secret')}`)).toBe(true);
    expect(expected.matches(`basic   ${b64('agency:agency-secret')} `)).toBe(true);
    expect(expected.matches(`Basic ${b64('agency:agency-secret').replace(/=+$/, '')}`)).toBe(true);
    expect(new BasicCredentials('bü', 'pä:ss').matches(`Basic ${b64('bü:pä:ss')}`)).toBe(true);
  });

  it('refuses wrong credentials of the same and of another length, other schemes and no header', () => {
    const right = `Basic ${b64('agency:agency-secret')}`;
    const sameLength = `Basic ${b64('agency:agency-secreT')}`;
    expect(sameLength.length).toBe(right.length);
    for (const header of [
      sameLength,
      `Basic ${b64('agency:agency-secret2')}`,
      `Basic ${b64('agency:')}`,
      `Bearer ${b64('agency:agency-secret')}`,
      'Basic',
      '',
      undefined,
    ]) {
      expect(expected.matches(header)).toBe(false);
    }
  });

  it('each instance checks its own credentials (no state shared between instances)', () => {
    const header = `Basic ${b64('agency:agency-secret')}`;
    const other = new BasicCredentials('agency', 'other');
    expect(other.matches(header)).toBe(false);
    expect(expected.matches(header)).toBe(true);
    expect(other.matches(`Basic ${b64('agency:other')}`)).toBe(true);
  });
});
