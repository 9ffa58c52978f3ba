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
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
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
  const mac = createHmac('sha256', webhookSecretKey(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * Networks a webhook may not reach unless private networks are allowed: loopback, RFC 1918,
 * carrier-grade NAT, link-local (cloud metadata), unspecified, IPv6 unique-local and link-local,
 * and IPv4-mapped IPv6 forms of all of these. Keeps an agency from making the worker POST into
 * the operator's own network (SSRF).
 */
export function privateAddresses(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ] as const) {
    list.addSubnet(net, prefix, 'ipv4');
    list.addSubnet(`::ffff:${net}`, 96 + prefix, 'ipv6');
  }
  list.addAddress('::', 'ipv6');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('fc00::', 7, 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  return list;
}

/** True when `address` (an IP literal) is in {@link privateAddresses}. */
export function isPrivateAddress(address: string, list: BlockList = privateAddresses()): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Settings of the delivery activity, read once at worker start. */
export interface WebhookDeliveryConfig {
  /**
   * Allow endpoints on private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS,
   * default `false` when `NODE_ENV=production`, else `true`, so local receivers work in development).
   */
  allowPrivateNetworks: boolean;
}

export function loadWebhookDeliveryConfig(env: NodeJS.ProcessEnv = process.env): WebhookDeliveryConfig {
  const raw = env.WEBHOOK_ALLOW_PRIVATE_NETWORKS?.trim();
  if (raw === undefined || raw === '') return { allowPrivateNetworks: env.NODE_ENV !== 'production' };
  if (raw !== 'true' && raw !== 'false')
    throw new Error(`WEBHOOK_ALLOW_PRIVATE_NETWORKS: must be true or false, got "${raw}"`);
  return { allowPrivateNetworks: raw === 'true' };
}

export interface WebhookActivityDeps {
  /** Default: {@link loadWebhookDeliveryConfig} of the environment. */
  config?: WebhookDeliveryConfig;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor() {
    super('the endpoint resolves to a private, loopback or link-local address');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that refuses private addresses (checked on the addresses actually connected to). */
function guardedLookup(blocked: BlockList) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, []);
      if (addresses.some((a) => isPrivateAddress(a.address, blocked))) return callback(new BlockedAddressError(), []);
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(new BlockedAddressError(), []);
      callback(null, first.address, first.family);
    });
  };
}

/** Reason of a failed request without anything from the request itself (no URL, no secret). */
function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
  if (err?.code === 'EBLOCKEDADDRESS') return 'blocked: private, loopback or link-local address';
  if (typeof err?.code === 'string') return err.code;
  return 'request failed';
}

/** One POST; resolves with the status code (the answer's body is read and dropped). */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  blocked: BlockList | undefined,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(timeoutMs),
        ...(blocked !== undefined ? { lookup: guardedLookup(blocked) as never } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function createWebhookActivities(deps: WebhookActivityDeps = {}): WebhookActivities {
  const config = deps.config ?? loadWebhookDeliveryConfig();
  const now = deps.now ?? Date.now;
  const blocked = config.allowPrivateNetworks ? undefined : privateAddresses();

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
      const url = new URL(input.url);
      // An IP literal is connected to without a lookup: check it here.
      if (blocked !== undefined && isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ''), blocked))
        throw new BlockedAddressError();
      // Redirects are not followed (a 3xx is a failed attempt): the signed body never goes elsewhere.
      const status = await post(url, headers, input.body, input.timeoutMs, blocked);
      const durationMs = now() - started;
      if (status >= 200 && status < 300) return { ok: true, at, durationMs, httpStatus: status };
      return { ok: false, at, durationMs, httpStatus: status, error: `HTTP ${status}` };
    } catch (error) {
      return { ok: false, at, durationMs: now() - started, error: describeFailure(error, input.timeoutMs) };
    }
  }

  return { deliverWebhook };
}
