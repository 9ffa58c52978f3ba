import { loadWebhookConfig } from './webhook.config';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/webhook.model';
import { validateWebhookCreate } from './webhook.dto';

describe('validateWebhookCreate', () => {
  it('accepts every event type, the servicing ones included', () => {
    const events = [...WEBHOOK_EVENT_TYPES];
    expect(events).toEqual(
      expect.arrayContaining(['booking.held', 'booking.payment_due', 'booking.expired', 'booking.changed']),
    );
    expect(validateWebhookCreate({ url: 'https://a.example.com/h', events }, true)).toEqual({
      ok: true,
      value: { url: 'https://a.example.com/h', events },
    });
  });
  it('accepts a valid body and drops an empty description', () => {
    expect(
      validateWebhookCreate(
        { url: 'https://a.example.com/h?x=1', events: ['booking.failed'], description: '  ' },
        true,
      ),
    ).toEqual({
      ok: true,
      value: { url: 'https://a.example.com/h?x=1', events: ['booking.failed'] },
    });
  });
  it('names each bad field without quoting values', () => {
    const r = validateWebhookCreate(
      { url: 'http://a.example.com/h', events: ['batch.completed', 'batch.completed'], x: 1 },
      true,
    );
    expect(r).toEqual({
      ok: false,
      fields: [
        { path: 'url', message: 'must be an https URL' },
        { path: 'events', message: 'must not repeat an event' },
        { path: 'x', message: 'unknown field' },
      ],
    });
    expect(validateWebhookCreate({ url: 'https://u:p@a.example.com/', events: ['booking.failed'] }, false)).toEqual({
      ok: false,
      fields: [{ path: 'url', message: 'must not contain credentials' }],
    });
    expect(validateWebhookCreate('nope', false)).toMatchObject({ ok: false, fields: [{ path: '(body)' }] });
  });
});

describe('loadWebhookConfig', () => {
  it('defaults to 5 s doubling up to 1 h for 72 h; https required in production only', () => {
    expect(loadWebhookConfig({})).toEqual({
      retry: {
        initialIntervalMs: 5000,
        backoffCoefficient: 2,
        maximumIntervalMs: 3_600_000,
        maxAgeMs: 259_200_000,
        requestTimeoutMs: 10_000,
      },
      requireHttps: false,
    });
    expect(loadWebhookConfig({ NODE_ENV: 'production' }).requireHttps).toBe(true);
    expect(loadWebhookConfig({ NODE_ENV: 'production', WEBHOOK_REQUIRE_HTTPS: 'false' }).requireHttps).toBe(false);
    expect(loadWebhookConfig({ WEBHOOK_MAX_AGE_MS: '3600000' }).retry.maxAgeMs).toBe(3_600_000);
  });
  it('fails fast naming the variable', () => {
    expect(() => loadWebhookConfig({ WEBHOOK_MAX_AGE_MS: 'soon' })).toThrow(/^WEBHOOK_MAX_AGE_MS: /);
    expect(() => loadWebhookConfig({ WEBHOOK_INITIAL_INTERVAL_MS: '10000', WEBHOOK_MAX_INTERVAL_MS: '5000' })).toThrow(
      'WEBHOOK_MAX_INTERVAL_MS: must not be below WEBHOOK_INITIAL_INTERVAL_MS',
    );
  });
});
