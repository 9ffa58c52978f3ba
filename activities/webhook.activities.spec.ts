import { createServer } from 'node:http';
import {
  createWebhookActivities,
  generateWebhookSecret,
  isPrivateAddress,
  loadWebhookDeliveryConfig,
  signWebhook,
  webhookSecretKey,
} from './webhook.activities';

describe('webhook signing (Standard Webhooks)', () => {
  it('matches the published test vector of the Standard Webhooks / Svix libraries', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
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
    const { deliverWebhook } = createWebhookActivities({
      now: () => 1614265330_000,
      config: { allowPrivateNetworks: true },
    });
    const input = {
      url,
      secret,
      messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      body: '{"test": 2432232314}',
      timeoutMs: 2000,
    };
    try {
      expect(await deliverWebhook(input)).toEqual({
        ok: true,
        at: '2021-02-25T15:02:10.000Z',
        durationMs: 0,
        httpStatus: 204,
      });
      expect(seen[0]!.body).toBe('{"test": 2432232314}');
      expect(seen[0]!.headers).toMatchObject({
        'content-type': 'application/json',
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      });
      expect(await deliverWebhook(input)).toEqual({
        ok: false,
        at: '2021-02-25T15:02:10.000Z',
        durationMs: 0,
        httpStatus: 500,
        error: 'HTTP 500',
      });
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
      const { deliverWebhook } = createWebhookActivities({ config: { allowPrivateNetworks: true } });
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

describe('private networks (SSRF guard)', () => {
  it('classifies addresses', () => {
    const privateOnes = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ];
    const publicOnes = ['8.8.8.8', '172.32.0.1', '192.169.0.1', '2001:db8::1', '::ffff:8.8.8.8', 'example.com'];
    expect(privateOnes.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(publicOnes.filter((a) => isPrivateAddress(a))).toEqual([]);
  });

  it('refuses private endpoints, by IP literal or by name, without sending anything', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const { deliverWebhook } = createWebhookActivities({ config: { allowPrivateNetworks: false } });
      const input = { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', messageId: 'm', body: '{}', timeoutMs: 2000 };
      for (const url of [`http://127.0.0.1:${port}/h`, `http://localhost:${port}/h`, `http://[::1]:${port}/h`]) {
        expect(await deliverWebhook({ ...input, url })).toMatchObject({
          ok: false,
          error: 'blocked: private, loopback or link-local address',
        });
      }
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('allows them outside production unless configured, never by default in production', () => {
    expect(loadWebhookDeliveryConfig({})).toEqual({ allowPrivateNetworks: true });
    expect(loadWebhookDeliveryConfig({ NODE_ENV: 'production' })).toEqual({ allowPrivateNetworks: false });
    expect(loadWebhookDeliveryConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' })).toEqual({
      allowPrivateNetworks: true,
    });
    expect(() => loadWebhookDeliveryConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS: must be true or false, got "yes"',
    );
  });
});
