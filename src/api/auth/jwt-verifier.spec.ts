import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { JwtVerifier } from './jwt-verifier';

describe('JwtVerifier', () => {
  let server: http.Server;
  let key: KeyLike;
  let verifier: JwtVerifier;
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://id.test/')
      .setAudience('api')
      .setSubject('alice')
      .setExpirationTime('5m')
      .sign(key);

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    server = http.createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    verifier = new JwtVerifier({
      issuer: 'https://id.test/',
      audience: 'api',
      jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
      agencyClaim: 'agency',
      roleClaim: 'role',
      opsRole: 'support',
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('maps the configured claims to a principal (role as a string or an array)', async () => {
    expect(await verifier.verify(await sign({ agency: 'AG1' }))).toEqual({
      ok: true,
      principal: { agencyId: 'AG1', role: 'agency', method: 'jwt', id: 'jwt:alice' },
    });
    expect(await verifier.verify(await sign({ agency: 'AG1', role: 'support' }))).toMatchObject({
      ok: true,
      principal: { role: 'ops' },
    });
    expect(await verifier.verify(await sign({ agency: 'AG1', role: ['viewer', 'support'] }))).toMatchObject({
      ok: true,
      principal: { role: 'ops' },
    });
    expect(await verifier.verify(await sign({ role: 'support' }))).toMatchObject({
      ok: true,
      principal: { agencyId: 'ops', role: 'ops' },
    });
  });

  it('refuses a token without a usable agency claim, and says why without the token', async () => {
    expect(await verifier.verify(await sign({}))).toEqual({
      ok: false,
      reason: 'claim agency missing or not an agency id',
    });
    expect(await verifier.verify(await sign({ agency: "a'b" }))).toEqual({
      ok: false,
      reason: 'claim agency missing or not an agency id',
    });
    const other = await new SignJWT({ agency: 'AG1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://id.test/')
      .setAudience('other')
      .setExpirationTime('5m')
      .sign(key);
    expect(await verifier.verify(other)).toEqual({ ok: false, reason: 'claim aud invalid' });
    expect(JwtVerifier.looksLikeJwt(other)).toBe(true);
    expect(JwtVerifier.looksLikeJwt('nsk_abc')).toBe(false);
  });
});
