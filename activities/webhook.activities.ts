/**
 * Webhook delivery: one signed HTTP POST per activity execution (the delivery workflow retries
 * with backoff, see workflows/webhook-delivery.workflow.ts). Signed in the Standard Webhooks
 * scheme (https://www.standardwebhooks.com/): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64 part of the endpoint's `whsec_...` secret.
 *
 * The secret is never logged and never put in a result or an error message.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { DeliverWebhookInput, DeliverWebhookResult, WebhookActivities } from '../src/webhooks/webhook.model';

/** Prefix of signing secrets (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Bytes of a new signing secret. */
export const WEBHOOK_SECRET_BYTES = 32;

/** A new random signing secret: `whsec_` + base64 of 32 bytes. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a `whsec_...` secret. Throws (without quoting it) when it is malformed. */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  if (key.length < 16) throw new Error('webhook secret key is shorter than 16 bytes');
  return key;
}

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`. */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', webhookSecretKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface WebhookActivityDeps {
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

/** Reason of a failed request without anything from the request itself (no URL query, no secret). */
function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
  const code = err?.cause?.code;
  if (typeof code === 'string') return code;
  return 'request failed';
}

export function createWebhookActivities(deps: WebhookActivityDeps = {}): WebhookActivities {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;

  async function deliverWebhook(input: DeliverWebhookInput): Promise<DeliverWebhookResult> {
    const started = now();
    const timestamp = Math.floor(started / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'ndc-saga-webhooks/1',
      'webhook-id': input.messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(input.secret, input.messageId, timestamp, input.body),
    };
    const at = new Date(started).toISOString();
    try {
      const response = await doFetch(input.url, {
        method: 'POST',
        headers,
        body: input.body,
        // A redirect is a failed attempt: the signed body is never re-sent elsewhere.
        redirect: 'manual',
        signal: AbortSignal.timeout(input.timeoutMs),
      });
      // The answer's body is not used; drain it so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      const durationMs = now() - started;
      if (response.status >= 200 && response.status < 300) return { ok: true, at, durationMs, httpStatus: response.status };
      return { ok: false, at, durationMs, httpStatus: response.status, error: `HTTP ${response.status}` };
    } catch (error) {
      return { ok: false, at, durationMs: now() - started, error: describeFailure(error, input.timeoutMs) };
    }
  }

  return { deliverWebhook };
}
