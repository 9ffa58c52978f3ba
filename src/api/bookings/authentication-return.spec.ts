import { developmentPayloadKey } from '../../temporal/payload-codec';
import { loadApiConfig } from '../config/api.config';
import { isReturnToken, returnToken, returnTokenKey, returnUrls } from './authentication-return';

describe('3-D Secure return token and URLs', () => {
  const key = returnTokenKey(developmentPayloadKey());

  it("is bound to one booking: its own token passes, another booking's or a changed one does not", () => {
    const token = returnToken(key, 'booking:AG1:k1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isReturnToken(key, 'booking:AG1:k1', token)).toBe(true);
    expect(isReturnToken(key, 'booking:AG1:k2', token)).toBe(false);
    expect(isReturnToken(key, 'booking:AG1:k1', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(isReturnToken(key, 'booking:AG1:k1', undefined)).toBe(false);
    expect(isReturnToken(key, 'booking:AG1:k1', token.slice(0, 10))).toBe(false);
    // Another payload key (another deployment): another token.
    expect(isReturnToken(returnTokenKey(Buffer.alloc(32, 7)), 'booking:AG1:k1', token)).toBe(false);
  });

  it('builds TermURL and FailURL under the public URL, the id encoded', () => {
    const { termUrl, failUrl } = returnUrls('https://api.example/base/', key, 'booking:AG1:k1');
    const token = returnToken(key, 'booking:AG1:k1');
    expect(termUrl).toBe(
      `https://api.example/base/bookings/booking%3AAG1%3Ak1/authentication/return?token=${token}&result=approved`,
    );
    expect(failUrl).toBe(
      `https://api.example/base/bookings/booking%3AAG1%3Ak1/authentication/return?token=${token}&result=declined`,
    );
  });

  it('API_PUBLIC_URL: optional, an absolute http(s) URL', () => {
    expect(loadApiConfig({}).publicUrl).toBeUndefined();
    expect(loadApiConfig({ API_PUBLIC_URL: 'https://book.example' }).publicUrl).toBe('https://book.example');
    expect(() => loadApiConfig({ API_PUBLIC_URL: 'book.example' })).toThrow(/API_PUBLIC_URL/);
  });
});
