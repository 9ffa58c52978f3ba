import { basicCredentialsMatch } from './basic-auth.guard';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('basicCredentialsMatch', () => {
  it('accepts the usual header and other spellings of the same credentials', () => {
    expect(basicCredentialsMatch(`Basic ${b64('agency:agency-secret')}`, 'agency', 'agency-secret')).toBe(true);
    expect(basicCredentialsMatch(`basic   ${b64('agency:agency-secret')} `, 'agency', 'agency-secret')).toBe(true);
    expect(basicCredentialsMatch(`Basic ${b64('agency:agency-secret').replace(/=+$/, '')}`, 'agency', 'agency-secret')).toBe(true);
    expect(basicCredentialsMatch(`Basic ${b64('bü:pä:ss')}`, 'bü', 'pä:ss')).toBe(true);
  });

  it('refuses wrong credentials of the same and of another length, other schemes and no header', () => {
    const right = `Basic ${b64('agency:agency-secret')}`;
    const sameLength = `Basic ${b64('agency:agency-secreT')}`;
    expect(sameLength.length).toBe(right.length);
    for (const header of [sameLength, `Basic ${b64('agency:agency-secret2')}`, `Basic ${b64('agency:')}`, `Bearer ${b64('agency:agency-secret')}`, 'Basic', '', undefined]) {
      expect(basicCredentialsMatch(header, 'agency', 'agency-secret')).toBe(false);
    }
  });

  it('follows a change of the expected credentials', () => {
    const header = `Basic ${b64('agency:agency-secret')}`;
    expect(basicCredentialsMatch(header, 'agency', 'agency-secret')).toBe(true);
    expect(basicCredentialsMatch(header, 'agency', 'other')).toBe(false);
    expect(basicCredentialsMatch(`Basic ${b64('agency:other')}`, 'agency', 'other')).toBe(true);
  });
});
