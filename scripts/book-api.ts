/**
 * What every command of `npm run book` shares (scripts/book.ts): the session (the API, its key,
 * where lines go, how long to wait), one HTTP request to the API, the API's problem (RFC 9457) as
 * a line for a person, money as the API gives it, and the lines of a booking that waits for a
 * person (a price approval, 3-D Secure).
 */
import type { BookingView } from '../src/api/common/api.schemas';

/** Where and how `npm run book` talks to the API, and where its lines go. */
export interface Session {
  /** The API's base URL, without a trailing slash (API_URL, default `http://127.0.0.1:3000`). */
  apiUrl: string;
  /** `Authorization` header value (`Bearer <NDC_SAGA_API_KEY>`). */
  authorization: string;
  /** Writes one line of the report (stdout). */
  out: (line: string) => void;
  /** Approve a price-guard wait (`AWAITING_APPROVAL`) by itself (`--approve`, default false). */
  approve: boolean;
  /** Overall deadline of a run, in ms (BOOK_TIMEOUT_MS, default 300000). */
  timeoutMs: number;
  /** Pause between two polls of a booking, in ms (default 500). */
  pollMs: number;
}

/** An answer of the API: its status and its JSON body (`undefined` when it had none or no JSON). */
export interface ApiAnswer {
  status: number;
  json: Record<string, unknown> | undefined;
}

/** Exact amount with its currency, as the API answers it. */
export interface Money {
  value: string;
  currency: string;
}

/** Bad usage (exit code 2): the message, then the usage on stderr. */
export class Usage extends Error {}

/** `--help` was asked for: the usage on stdout, exit 0. */
export class Help extends Error {}

/** Sends one request to the API (`path` from its root) with the session's key; JSON in, JSON out. */
export async function http(
  s: Pick<Session, 'apiUrl' | 'authorization'>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const res = await fetch(`${s.apiUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: s.authorization,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as Record<string, unknown> | undefined };
}

/** The path of a booking (`route`: e.g. `/payment`), its id URL-encoded. */
export function bookingPath(id: string, route = ''): string {
  return `/bookings/${encodeURIComponent(id)}${route}`;
}

/** An RFC 9457 problem as the API answers errors. */
interface ErrorBody {
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
  fields?: { path: string; message: string }[];
}

/**
 * The API's problem for a person: `CODE: detail (request id)`, then one indented line per bad
 * field (`path: message`). The API never answers card data, so none is printed.
 */
export function describeError(body: unknown): string {
  if (body === undefined) return 'no body';
  const json = body as ErrorBody;
  const fields = Array.isArray(json.fields) ? json.fields.map((f) => `\n      ${f.path}: ${f.message}`).join('') : '';
  return `${json.code ?? json.title}: ${json.detail}${json.requestId !== undefined ? ` (request ${json.requestId})` : ''}${fields}`;
}

/** `129.00 GBP`: the amount exactly as the API gave it, then its currency. */
export function money(m: Money): string {
  return `${m.value} ${m.currency}`;
}

const RELATIVE = /^([+-])(\d{1,4})([dmy])$/;

/** Resolves `+30d` / `-8y` / `-7m` against `today` (UTC); other values are returned as they are. */
export function resolveDate(value: string, today: Date): string {
  const m = RELATIVE.exec(value);
  if (m === null) return value;
  const n = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  const y = today.getUTCFullYear() + (m[3] === 'y' ? n : 0);
  const mo = today.getUTCMonth() + (m[3] === 'm' ? n : 0);
  const d = today.getUTCDate() + (m[3] === 'd' ? n : 0);
  return new Date(Date.UTC(y, mo, d)).toISOString().slice(0, 10);
}

/** Waits `ms` (between two polls). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The line of a booking that waits for a person, when it starts waiting: the price guard (how to
 * approve, or that the CLI approves: `approving`) or 3-D Secure (the issuer's page to open and
 * until when). `undefined` for any other status.
 */
export function waitingLine(label: string, v: BookingView, s: Pick<Session, 'apiUrl' | 'approve'>): string | undefined {
  if (v.status === 'AWAITING_APPROVAL') {
    // A servicing action's amount (a held booking repriced), else the booking's priced total.
    const priced = v.servicing?.amount ?? v.pricedTotal;
    const total = priced !== undefined ? money(priced) : 'the total';
    const how = s.approve
      ? ' (approving)'
      : ` (approve: curl -X POST -H "Authorization: Bearer $NDC_SAGA_API_KEY" ${s.apiUrl}${bookingPath(v.id, '/approve-price')})`;
    return `  ${label}: AWAITING_APPROVAL, priced ${total} is above maxTotal${how}`;
  }
  if (v.status === 'AWAITING_AUTHENTICATION' && v.authentication !== undefined) {
    return `  ${label}: AWAITING_AUTHENTICATION, the card needs 3-D Secure: open this in a browser and complete the payment before ${v.authentication.expiresAt}:\n    ${v.authentication.redirectUrl}`;
  }
  return undefined;
}
