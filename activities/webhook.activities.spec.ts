import { createServer } from 'node:http';
import { createWebhookActivities, generateWebhookSecret, signWebhook, webhookSecretKey } from './webhook.activities';

describe('webhook signing (Standard Webhooks)', () => {
  it('matches the published test vector of the Standard Webhooks / Svix libraries', () => {
    expect(
      signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretKey(a)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('refuses a malformed secret without quoting it', () => {
    expect(() => webhookSecretKey('sk_live_abcdef')).toThrow('webhook secret must start with whsec_');
    expect(() => webhookSecretKey('whsec_YWJj')).toThrow('webhook secret key is shorter than 16 bytes');
  });
});

describe('deliverWebhook', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('POSTs the body with the webhook-* headers; 2xx is ok, other statuses and network errors are failed attempts', async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const statuses = [204, 500, 302];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.statusCode = statuses.shift()!;
        if (res.statusCode === 302) res.setHeader('location', 'http://example.com/');
        res.end('ignored');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    const { deliverWebhook } = createWebhookActivities({ now: () => 1614265330_000 });
    const input = { url, secret, messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek', body: '{"test": 2432232314}', timeoutMs: 2000 };
    try {
      expect(await deliverWebhook(input)).toEqual({ ok: true, at: '2021-02-25T15:02:10.000Z', durationMs: 0, httpStatus: 204 });
      expect(seen[0]!.body).toBe('{"test": 2432232314}');
      expect(seen[0]!.headers).toMatchObject({
        'content-type': 'application/json',
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      });
      expect(await deliverWebhook(input)).toEqual({ ok: false, at: '2021-02-25T15:02:10.000Z', durationMs: 0, httpStatus: 500, error: 'HTTP 500' });
      // A redirect is not followed (the signed body never goes elsewhere).
      expect(await deliverWebhook(input)).toMatchObject({ ok: false, httpStatus: 302, error: 'HTTP 302' });
      expect(seen).toHaveLength(3);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    // A port nobody listens on (taken, then released, by a server fetch never talked to).
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const refused = await deliverWebhook({ ...input, url: `http://127.0.0.1:${closedPort}/hook` });
    expect(refused).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
    expect(JSON.stringify(refused)).not.toContain('whsec_');
  });

  it('times out a receiver that does not answer', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    try {
      const { deliverWebhook } = createWebhookActivities();
      expect(await deliverWebhook({ url, secret, messageId: 'm', body: '{}', timeoutMs: 200 })).toMatchObject({
        ok: false,
        error: 'timeout after 200 ms',
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
