/**
 * The parts of Express's request and response the airline uses. Express's
 * own type package is not a dependency of this project; these describe
 * Express 5's documented API (`req.is`, `req.accepts`, `req.fresh`, ...).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ExpressRequest extends IncomingMessage {
  /** The Content-Type matching one of `types` (type-is), false when none matches, null without a body. */
  is(types: string[]): string | false | null;
  /** The best of `types` for the Accept header (accepts / negotiator), false when none is acceptable. */
  accepts(types: string[]): string | false;
  /** `encoding` when Accept-Encoding allows it, else false. */
  acceptsEncodings(encoding: string): string | false;
  /** True when the response's ETag / Last-Modified satisfy the request's conditional headers (fresh). */
  readonly fresh: boolean;
  /** `http` or `https` (Express's `req.protocol`; proxies count only when `trust proxy` is set). */
  readonly protocol: string;
  /** A request header, case-insensitive (`req.get`). */
  get(name: string): string | undefined;
  /** Path of the URL. */
  readonly path: string;
  /** The route that matched (`path`: its template, e.g. `/retail/offers`), once Express routed the request. */
  readonly route?: { path: string };
  /** Query string parameters. */
  readonly query: Record<string, unknown>;
  /** What the body parsers read (a string for XML, a value for JSON), undefined when none ran. */
  body?: unknown;
}

export interface ExpressResponse extends ServerResponse {
  /** Per-request values of this application (Express's own place for them). */
  locals: Record<string, unknown>;
  status(code: number): this;
  set(field: string, value: string): this;
  type(type: string): this;
  /** Redirects with `status` to `url` (Express's `res.redirect`). */
  redirect(status: number, url: string): void;
  send(body: string): this;
}
