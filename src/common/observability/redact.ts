/**
 * Scrubs secrets from anything about to be logged: card numbers, CVVs, `Authorization` headers,
 * API keys, passwords, tokens and other secrets, by key name anywhere in the object and by shape
 * inside strings (a Luhn-valid 13-19 digit run, a `Bearer`/`Basic` credential). A Node HTTP
 * request or response anywhere in it becomes a few safe fields ({@link LOGGED_HEADERS}). Used by
 * the logger factory for every line (logger.ts); pure, so other log paths can use it too.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { luhnValid } from '../luhn';

/** What replaces a secret value. */
export const REDACTED = '[Redacted]';

/**
 * Keys whose value is always a secret (see also {@link isSecretKey}), compared case-insensitively with `-` and `_` removed
 * (`x-api-key`, `API_KEY` and `apiKey` all match `xapikey` / `apikey`).
 */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'apikey',
  'xapikey',
  'apikeys',
  'temporalapikey',
  'password',
  'passwd',
  'pwd',
  'secret',
  'clientsecret',
  'secrets',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'bearer',
  'verificationcode',
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'securitycode',
  'cardsecuritycode',
  'seriescode',
  'cavv',
  'cardnumber',
  'pan',
  'primaryaccountnumber',
  'privatekey',
  'encryptionkey',
  'payloadencryptionkey',
  'vaultkey',
  'airlinevaultkey',
  'key',
]);

/** Key endings that mark a secret too (`AIRLINE_PASSWORD`, `clientSecret`, `PAYLOAD_ENCRYPTION_KEY`). */
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'secret',
  'apikey',
  'privatekey',
  'encryptionkey',
  'vaultkey',
  'accesstoken',
  'refreshtoken',
  'authorization',
  'cvv',
  'cvc',
];

/** Whether a key (already normalised) names a secret. */
export function isSecretKey(normalised: string): boolean {
  return SECRET_KEYS.has(normalised) || SECRET_SUFFIXES.some((suffix) => normalised.endsWith(suffix));
}

/**
 * Request headers an HTTP request is logged with; every other header (Authorization, cookies, API
 * keys, anything unknown) is left out.
 */
export const LOGGED_HEADERS: readonly string[] = [
  'user-agent',
  'content-type',
  'content-length',
  'x-request-id',
  'x-correlation-id',
  'x-transactionidentifier',
  'idempotency-key',
  'traceparent',
];

/** What a Node HTTP request becomes in a log: method, URL (scrubbed) and the {@link LOGGED_HEADERS}. Never the body. */
function safeRequest(req: IncomingMessage): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.map(redactString) : redactString(value);
  }
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return { method: req.method, url: redactString(url), headers };
}

/** Parent keys under which `number` is a card number (`payment.card.number`). */
const CARD_KEYS: ReadonlySet<string> = new Set(['card', 'paymentcard', 'creditcard', 'debitcard']);

const MAX_DEPTH = 12;

function normalise(key: string): string {
  return key.replace(/[-_]/g, '').toLowerCase();
}

/** Query parameters that carry 3-D Secure secrets: the return token, PaRes, CAVV. */
const SECRET_QUERY = /(?<=[?&])(token|PaRes|cavv)=[^&#\s"']*/gi;

/**
 * Masks Luhn-valid card numbers (13-19 digits, spaces or dashes allowed), credentials and the
 * 3-D Secure query parameters (`token`, `PaRes`, `cavv`) in a string.
 */
export function redactString(text: string): string {
  let out = text.replace(
    /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
    (_match, scheme: string) => `${scheme} ${REDACTED}`,
  );
  // 3-D Secure return tokens and results in URLs (the booking API's return endpoint, TermURLs).
  out = out.replace(SECRET_QUERY, (_match, name: string) => `${name}=${REDACTED}`);
  out = out.replace(/\b\d(?:[ -]?\d){12,18}\b/g, (match) => {
    const digits = match.replace(/[ -]/g, '');
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? REDACTED : match;
  });
  return out;
}

/**
 * A deep copy of `value` with secrets replaced by {@link REDACTED}. Errors become plain objects
 * (`type`, `message`, `stack`, own fields), scrubbed too. Cycles and depth beyond 12 are cut.
 */
export function redact(value: unknown): unknown {
  return walk(value, undefined, 0, new WeakSet());
}

function walk(value: unknown, parentKey: string | undefined, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactString(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value);
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? REDACTED : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
  // Node HTTP messages: a few safe fields, never their sockets, raw headers or bodies.
  if (value instanceof IncomingMessage) return safeRequest(value);
  if (value instanceof ServerResponse) return { statusCode: value.headersSent ? value.statusCode : undefined };
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, parentKey, depth + 1, seen));
    const source: Record<string, unknown> =
      value instanceof Error
        ? {
            type: value.name,
            message: value.message,
            stack: value.stack,
            ...(value as unknown as Record<string, unknown>),
          }
        : (value as Record<string, unknown>);
    const inCard = parentKey !== undefined && CARD_KEYS.has(parentKey);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(source)) {
      const normalised = normalise(key);
      if (isSecretKey(normalised) || (inCard && normalised === 'number')) {
        out[key] = child === undefined || child === null || child === '' ? child : REDACTED;
      } else {
        out[key] = walk(child, normalised, depth + 1, seen);
      }
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
