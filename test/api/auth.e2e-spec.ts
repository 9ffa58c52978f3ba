/**
 * Authentication and agency isolation end to end: the real API, worker, airline and Temporal dev
 * server; API keys from a keys file, JWT bearer tokens verified against a local JWKS server with
 * keys this test creates. Every 401 case, agency A against agency B (every read and action 404,
 * lists disjoint, an intent naming B 403), ops acting on both, per-agency idempotency, codec
 * roles, the rate limit, and a scan of everything logged for the keys and tokens used.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { readKeysFile, writeKeysFile } from '../../src/api/auth/api-keys';
import { DEBIT_CARD, oneWayIntent } from './intent.fixture';
import { call, pollUntil, startStack, waitForBooking, type Stack } from './stack';
import '../support/temporal-env';
import { captureProcessOutput } from '../support/capture-output';

// Everything the process writes (API, worker, airline, SDK logs), for the secret scan.
const captured = captureProcessOutput('WARN');

const ISSUER = 'https://issuer.test/';
const AUDIENCE = 'ndc-saga-api';

describe('authentication and agency isolation end to end', () => {
  let stack: Stack;
  let jwks: http.Server;
  let signingKey: KeyLike;
  let strangerKey: KeyLike;
  const tokens: string[] = [];

  const token = async (
    claims: Record<string, unknown>,
    opts: { key?: KeyLike; aud?: string; iss?: string; exp?: number } = {},
  ) => {
    const jwt = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key-1' })
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? AUDIENCE)
      .setSubject('user-1')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(opts.key ?? signingKey);
    tokens.push(jwt);
    return jwt;
  };
  const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
  const as = (name: string) => stack.keys.auth(name);
  const enc = encodeURIComponent;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    stack = await startStack({
      prefix: 'api-auth',
      keys: {
        A: { agencyId: 'AGA' },
        B: { agencyId: 'AGB' },
        ops: { agencyId: 'OPS', role: 'ops' },
        revoked: { agencyId: 'AGA' },
        limited: { agencyId: 'AGLIMIT' },
      },
      apiEnv: {
        OIDC_ISSUER: ISSUER,
        OIDC_AUDIENCE: AUDIENCE,
        OIDC_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
        RATE_LIMIT_POINTS: '5',
        RATE_LIMIT_WINDOW_S: '3600',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it('401 without a credential, with a malformed one, a revoked key, an expired JWT, a wrong audience, issuer or signature', async () => {
    const expectUnauthenticated = async (what: string, headers: Record<string, string>) => {
      const r = await call(stack, 'GET', '/bookings', undefined, headers);
      expect([what, r.status, r.contentType, r.headers.get('www-authenticate'), r.body?.code]).toEqual([
        what,
        401,
        'application/problem+json; charset=utf-8',
        'Bearer realm="ndc-saga"',
        'UNAUTHENTICATED',
      ]);
    };
    await expectUnauthenticated('none', { authorization: '' });
    await expectUnauthenticated('basic', { authorization: 'Basic YWdlbmN5OmFnZW5jeS1zZWNyZXQ=' });
    await expectUnauthenticated('not a key', bearer('hello'));
    await expectUnauthenticated('unknown key', bearer(`${stack.keys.secret('A').slice(0, 15)}${'x'.repeat(43)}`));
    await expectUnauthenticated(
      'expired',
      bearer(await token({ agency_id: 'AGA' }, { exp: Math.floor(Date.now() / 1000) - 60 })),
    );
    await expectUnauthenticated('audience', bearer(await token({ agency_id: 'AGA' }, { aud: 'someone-else' })));
    await expectUnauthenticated('issuer', bearer(await token({ agency_id: 'AGA' }, { iss: 'https://evil.test/' })));
    await expectUnauthenticated('signature', bearer(await token({ agency_id: 'AGA' }, { key: strangerKey })));
    await expectUnauthenticated('no agency claim', bearer(await token({ roles: ['agency'] })));
    expect((await call(stack, 'GET', '/bookings', undefined, bearer(await token({ agency_id: 'AGA' })))).status).toBe(
      200,
    );

    // Revoking in the keys file: the running API refuses the key once it has re-read the file.
    expect((await call(stack, 'GET', '/bookings', undefined, as('revoked'))).status).toBe(200);
    const content = readKeysFile(stack.keys.file);
    const revokedId = stack.keys.secret('revoked').slice(4, 14);
    content.keys.find((k) => k.id === revokedId)!.revokedAt = new Date().toISOString();
    writeKeysFile(stack.keys.file, content);
    await pollUntil('the API to refuse the revoked key', async () =>
      (await call(stack, 'GET', '/bookings', undefined, as('revoked'))).status === 401 ? true : undefined,
    );
    expect(captured.join('')).toContain(`authentication failed: nsk_${revokedId} (API key revoked) on GET /bookings`);
  });

  const guarded = (agencyId?: string) => {
    const intent = { ...oneWayIntent({ card: DEBIT_CARD }), selection: { maxTotal: '1.00' } } as any;
    if (agencyId === undefined) delete intent.agency.id;
    else intent.agency.id = agencyId;
    return intent;
  };

  let aId = '';
  let bId = '';

  it('idempotency keys are per agency: A and B with one key get two bookings; the agency comes from the credential', async () => {
    const a = await call(stack, 'POST', '/bookings', guarded(), {
      'Idempotency-Key': 'shared-1',
      'X-Request-Id': 'auth-a-1',
      ...as('A'),
    });
    const b = await call(stack, 'POST', '/bookings', guarded(), { 'Idempotency-Key': 'shared-1', ...as('B') });
    expect([a.status, a.body.id, a.headers.get('location')]).toEqual([
      202,
      'booking:AGA:shared-1',
      '/bookings/booking%3AAGA%3Ashared-1',
    ]);
    expect([b.status, b.body.id, b.body.existing]).toEqual([202, 'booking:AGB:shared-1', false]);
    aId = a.body.id;
    bId = b.body.id;
    const named = await call(stack, 'POST', '/bookings', guarded('AGB'), as('A'));
    expect([named.status, named.body.code]).toEqual([403, 'AGENCY_MISMATCH']);
    const [va] = await Promise.all([
      waitForBooking(stack, aId, 'AWAITING_APPROVAL', 90_000, as('A')),
      waitForBooking(stack, bId, 'AWAITING_APPROVAL', 90_000, as('B')),
    ]);
    expect(va.correlationId).toBe('auth-a-1');
  });

  it("A gets 404 for every read and action on B's booking, exactly as for an unknown one", async () => {
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/order'],
      ['POST', '/approve-price'],
      ['POST', '/cancel'],
      ['GET', '/services'],
      ['GET', '/seat-map'],
      ['POST', '/cancel-quote'],
    ] as const) {
      const theirs = await call(stack, method, `/bookings/${enc(bId)}${suffix}`, undefined, as('A'));
      const unknown = await call(stack, method, `/bookings/${enc('booking:AGB:nope')}${suffix}`, undefined, as('A'));
      expect([suffix, theirs.status, theirs.body.code]).toEqual([suffix, 404, 'BOOKING_NOT_FOUND']);
      expect({ ...theirs.body, detail: undefined, requestId: undefined, instance: undefined }).toEqual({
        ...unknown.body,
        detail: undefined,
        requestId: undefined,
        instance: undefined,
      });
    }
    // B's booking is untouched: still waiting.
    expect((await call(stack, 'GET', `/bookings/${enc(bId)}`, undefined, as('B'))).body.status).toBe(
      'AWAITING_APPROVAL',
    );
  });

  it('lists are per agency; ops lists both and filters by agency', async () => {
    const listed = async (who: Record<string, string>, query = '') =>
      (
        (await call(stack, 'GET', `/bookings${query}`, undefined, who)).body.bookings as {
          id: string;
          agencyId: string;
        }[]
      ).map((b) => b.id);
    const opsAll = await pollUntil('visibility to show both bookings', async () => {
      const ids = await listed(as('ops'));
      return ids.includes(aId) && ids.includes(bId) ? ids : undefined;
    });
    expect(opsAll).toEqual(expect.arrayContaining([aId, bId]));
    const aIds = await listed(as('A'));
    expect(aIds).toContain(aId);
    expect(aIds).not.toContain(bId);
    const bIds = await listed(as('B'));
    expect(bIds).toEqual([bId]);
    expect(await listed(as('ops'), '?agencyId=AGB')).toEqual([bId]);
    expect((await call(stack, 'GET', '/bookings?agencyId=AGB', undefined, as('A'))).status).toBe(403);
  });

  it("ops reads and acts on both agencies: approves A's booking, cancels B's", async () => {
    expect((await call(stack, 'GET', `/bookings/${enc(aId)}`, undefined, as('ops'))).body.status).toBe(
      'AWAITING_APPROVAL',
    );
    const approved = await call(stack, 'POST', `/bookings/${enc(aId)}/approve-price`, undefined, as('ops'));
    expect([approved.status, approved.body.signal, approved.headers.get('location')]).toEqual([
      202,
      'approvePrice',
      `/bookings/${enc(aId)}`,
    ]);
    const cancelled = await call(stack, 'POST', `/bookings/${enc(bId)}/cancel`, undefined, as('ops'));
    expect([cancelled.status, cancelled.body.signal]).toEqual([202, 'cancel']);
    const a = await waitForBooking(stack, aId, 'CONFIRMED', 90_000, as('A'));
    await waitForBooking(stack, bId, 'CANCELLED', 90_000, as('B'));
    const order = await call(stack, 'GET', `/bookings/${enc(aId)}/order`, undefined, as('A'));
    expect(order.status).toBe(200);
    expect(order.text).toContain(`<ID>${a.order.bookingReference}</ID>`);
    expect((await call(stack, 'GET', `/bookings/${enc(aId)}/order`, undefined, as('ops'))).status).toBe(200);
    expect((await call(stack, 'GET', `/bookings/${enc(aId)}/order`, undefined, as('B'))).status).toBe(404);
  });

  it("batches: B cannot read A's batch or its children; ops can", async () => {
    const posted = await call(stack, 'POST', '/batches', [guarded()], { 'Idempotency-Key': 'batch-1', ...as('A') });
    expect([posted.status, posted.body.id, posted.headers.get('location')]).toEqual([
      202,
      'batch:AGA:batch-1',
      '/batches/batch%3AAGA%3Abatch-1',
    ]);
    const child = 'batch:AGA:batch-1-0';
    await waitForBooking(stack, child, 'AWAITING_APPROVAL', 90_000, as('A'));
    const theirs = await call(stack, 'GET', `/batches/${enc(posted.body.id)}`, undefined, as('B'));
    expect([theirs.status, theirs.body.code]).toEqual([404, 'BATCH_NOT_FOUND']);
    expect((await call(stack, 'GET', `/bookings/${enc(child)}`, undefined, as('B'))).status).toBe(404);
    expect((await call(stack, 'POST', `/bookings/${enc(child)}/cancel`, undefined, as('B'))).status).toBe(404);
    const progress = await call(stack, 'GET', `/batches/${enc(posted.body.id)}`, undefined, as('ops'));
    expect(progress.body).toMatchObject({
      id: 'batch:AGA:batch-1',
      total: 1,
      done: false,
      bookings: [{ id: child, status: expect.stringMatching(/^(RUNNING|AWAITING_APPROVAL)$/) }],
    });
    expect((await call(stack, 'POST', `/bookings/${enc(child)}/cancel`, undefined, as('ops'))).status).toBe(202);
    const done = await pollUntil('the batch to finish', async () => {
      const r = await call(stack, 'GET', `/batches/${enc(posted.body.id)}`, undefined, as('A'));
      return r.body?.done === true ? r.body : undefined;
    });
    expect(done).toMatchObject({ total: 1, cancelled: 1, pending: 0, running: 0 });
  });

  it('the codec endpoints refuse agency credentials outside the dev stack; ops keys and ops tokens (Temporal UI) pass', async () => {
    const body = { payloads: [] };
    const answer = async (headers: Record<string, string>) =>
      (await call(stack, 'POST', '/codec/decode', body, headers)).status;
    expect(await answer({ authorization: '' })).toBe(401);
    expect(await answer(as('A'))).toBe(403);
    expect(await answer(bearer(await token({ agency_id: 'AGA', roles: ['agency'] })))).toBe(403);
    expect((await call(stack, 'POST', '/codec/encode', body, as('A'))).status).toBe(403);
    expect(await answer(as('ops'))).toBe(200);
    // The UI's user token with the ops role and no agency claim (codec.passAccessToken).
    expect(await answer(bearer(await token({ roles: ['ops'] })))).toBe(200);
  });

  it('the per-agency rate limit answers 429 with Retry-After; other agencies are unaffected', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 6; i += 1) {
      last = await call(stack, 'POST', '/bookings', {}, as('limited'));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(last!.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await call(stack, 'POST', '/batches', {}, as('limited'))).status).toBe(429);
    expect((await call(stack, 'POST', '/bookings', {}, as('B'))).status).toBe(400);
  });

  it('no key or token used in this file appears in anything logged', () => {
    const log = captured.join('\n');
    expect(log).toContain('authentication failed');
    const secrets = [...stack.keys.all(), ...tokens];
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect([secret.slice(0, 14), log.includes(secret)]).toEqual([secret.slice(0, 14), false]);
      // Nor the secret half of a key, nor a JWT's signature.
      const tail = secret.startsWith('nsk_') ? secret.slice(15) : secret.split('.')[2]!;
      expect([secret.slice(0, 14), log.includes(tail)]).toEqual([secret.slice(0, 14), false]);
    }
  });
});
