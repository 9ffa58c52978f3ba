/**
 * Writes replies: gzip when the client accepts it, always chunked (the body is
 * written before the response ends, so no Content-Length is computed), and
 * `Keep-Alive: timeout=60`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync, constants as zlibConstants } from 'node:zlib';
import { acceptsGzip } from './media-type';

/** What a handler answers, before faults and transport encoding are applied. */
export interface HttpReply {
  status: number;
  /** Full Content-Type header value. Ignored for 304. */
  contentType?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Called once `body` has been handed to the socket or dropped (pooled buffers, see shopping-cache.ts). */
  release?: () => void;
}

/** Keep-alive timeout announced in responses and applied by the server (seconds). */
export const KEEP_ALIVE_SECONDS = 60;

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): HttpReply {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body), headers };
}

/** The JSON error shape of the payment interface and of non-NDC errors: `{code, description}`. */
export function jsonError(status: number, description: string, headers?: Record<string, string>): HttpReply {
  return jsonReply(status, { code: status, description }, headers);
}

export function textReply(status: number, text: string, headers?: Record<string, string>): HttpReply {
  return { status, contentType: 'text/plain; charset=utf-8', body: text, headers };
}

/** Sends `reply` on `res` unless the response has already been sent or the socket is gone. */
export function sendReply(req: IncomingMessage, res: ServerResponse, reply: HttpReply): void {
  let release = reply.release;
  if (res.headersSent || res.destroyed) {
    release?.();
    return;
  }
  const headers: Record<string, string> = {
    'Keep-Alive': `timeout=${KEEP_ALIVE_SECONDS}`,
    ...reply.headers,
  };
  if (reply.status === 304 || reply.body === undefined) {
    release?.();
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  let body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  headers['Content-Type'] = reply.contentType ?? 'application/octet-stream';
  headers['Vary'] = 'Accept-Encoding';
  if (acceptsGzip(req.headers['accept-encoding'])) {
    body = gzipSync(body, { level: zlibConstants.Z_BEST_SPEED });
    headers['Content-Encoding'] = 'gzip';
    release?.();
    release = undefined;
  }
  res.writeHead(reply.status, headers);
  // Writing before end() makes Node use Transfer-Encoding: chunked. The callback runs
  // once the socket has taken the bytes (or failed to).
  if (req.method !== 'HEAD') res.write(body, release && (() => release?.()));
  else release?.();
  res.end();
}
