/**
 * Reads a raw request body with a size limit. Nest's body parsers are turned
 * off for the airline (see airline.app.ts): retail bodies are read as bytes
 * and decoded by the NDC codec; token bodies are parsed as JSON here and
 * never logged.
 */
import type { IncomingMessage } from 'node:http';

/** The body is larger than the limit (HTTP 413). */
export class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
  }
}

/** Reads the whole body of `req`, rejecting with {@link BodyTooLargeError} past `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = (err: Error) => finish(err);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
