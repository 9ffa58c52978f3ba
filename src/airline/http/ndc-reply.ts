/**
 * Writing XML answers: UTF-8 bytes, gzip when Accept-Encoding allows it
 * (Express's `req.acceptsEncodings`), `Vary: Accept-Encoding`, and always
 * chunked (no Content-Length: the body is streamed). The server announces
 * `Keep-Alive: timeout=60` itself (see airline.app.ts).
 */
import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { gzipSync, constants as zlibConstants } from 'node:zlib';
import type { ExpressRequest, ExpressResponse } from './express.types';

/** An answer's body bytes and the headers that go with them. */
export interface XmlPayload {
  body: Buffer;
  headers: Record<string, string>;
}

/** The bytes of `xml` as sent to `req` (gzip when accepted) and their headers; `contentType` is the full header value. */
export function xmlPayload(req: ExpressRequest, contentType: string, xml: string): XmlPayload {
  const headers: Record<string, string> = { 'Content-Type': contentType, Vary: 'Accept-Encoding' };
  let body = Buffer.from(xml, 'utf8');
  if (req.acceptsEncodings('gzip')) {
    body = gzipSync(body, { level: zlibConstants.Z_BEST_SPEED });
    headers['Content-Encoding'] = 'gzip';
  }
  return { body, headers };
}

/** A route's XML answer for Nest to send (streamed, hence chunked). */
export function xmlStream(res: ExpressResponse, payload: XmlPayload): StreamableFile {
  for (const [name, value] of Object.entries(payload.headers)) res.setHeader(name, value);
  // A byte stream, not object mode: Nest pipes an object-mode source through an extra Transform.
  return new StreamableFile(Readable.from([payload.body], { objectMode: false }), {
    type: payload.headers['Content-Type'],
  });
}

/**
 * Drops the body headers a route set before it failed (e.g. the ETag of the GET, or headers of an
 * answer a fault replaced), so an error answer never inherits them.
 */
function dropBodyHeaders(res: ExpressResponse): void {
  for (const name of ['Content-Encoding', 'Content-Type', 'Content-Length', 'Vary', 'ETag']) res.removeHeader(name);
}

/** Sends an XML answer directly (from the exception filter), chunked like {@link xmlStream}. */
export function sendXml(
  res: ExpressResponse,
  status: number,
  payload: XmlPayload,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  dropBodyHeaders(res);
  res.writeHead(status, { ...payload.headers, ...headers });
  // Writing before end() makes Node use Transfer-Encoding: chunked.
  res.write(payload.body);
  res.end();
}

/** Sends a small text or JSON answer directly (from the exception filter). */
export function sendText(
  res: ExpressResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  dropBodyHeaders(res);
  res.writeHead(status, { 'Content-Type': contentType, ...headers });
  res.write(text);
  res.end();
}

/** `{code, description}`: the JSON error shape of the payment interface and of non-NDC errors. */
export function sendJsonError(
  res: ExpressResponse,
  status: number,
  description: string,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, 'application/json; charset=utf-8', JSON.stringify({ code: status, description }), headers);
}
