/**
 * A real local webhook receiver for the e2e specs. It verifies every request's signature with its
 * own implementation of the Standard Webhooks scheme (independent of activities/webhook.activities.ts):
 * HMAC-SHA256 by hand over `<webhook-id>.<webhook-timestamp>.<raw body bytes>`, constant-time
 * comparison against every `v1,` signature of the header, and a timestamp tolerance.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** Accepted distance between `webhook-timestamp` and the receiver's clock (Standard Webhooks suggests 5 min). */
export const TOLERANCE_SECONDS = 5 * 60;

/**
 * Why a request does not verify under `secret`, or `undefined` when it does. `nowSeconds` is the
 * receiver's clock.
 */
export function verifySignature(
  secret: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
  nowSeconds: number,
): string | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    return 'missing webhook-* header';
  if (!/^[0-9]{1,12}$/.test(timestamp)) return 'webhook-timestamp is not whole seconds';
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return 'webhook-timestamp outside the tolerance';
  if (!secret.startsWith('whsec_')) return 'secret without whsec_ prefix';
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'))
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  return matches ? undefined : 'no v1 signature matches';
}

export interface ReceivedRequest {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  contentType: string | undefined;
  /** Why verification failed, `undefined` when it passed. */
  verifyError: string | undefined;
  /** Status the receiver answered. */
  answered: number;
}

export interface Receiver {
  url: string;
  /** Every request, in arrival order. */
  requests: ReceivedRequest[];
  /** The secret to verify with (known once the endpoint is registered). */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1 that answers 503 to the first `refuseFirst` attempts of each
 * webhook id (all of them when `Infinity`), then 204.
 */
export async function startReceiver(options: { refuseFirst: number }): Promise<Receiver> {
  let secret: string | undefined;
  const requests: ReceivedRequest[] = [];
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const id = String(req.headers['webhook-id'] ?? '');
      const count = (seen.get(id) ?? 0) + 1;
      seen.set(id, count);
      const verifyError =
        secret === undefined
          ? 'no secret yet'
          : verifySignature(secret, req.headers, body, Math.floor(Date.now() / 1000));
      const answered = verifyError !== undefined ? 401 : count <= options.refuseFirst ? 503 : 204;
      requests.push({
        id,
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body: body.toString('utf8'),
        contentType: req.headers['content-type'],
        verifyError,
        answered,
      });
      res.statusCode = answered;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    setSecret: (s) => {
      secret = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
