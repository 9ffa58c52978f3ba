/**
 * JSON bodies of the payment and simulator endpoints. The body is parsed
 * here, never logged, and errors name no value from it.
 */
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, readBody } from './body';

/** Why a JSON body was refused; `status` is 413, 415 or 400. */
export class JsonBodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a JSON body of at most `limit` bytes (Content-Type application/json). */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    throw new JsonBodyError(415, 'Unsupported Media Type: send application/json');
  }
  let raw: Buffer;
  try {
    raw = await readBody(req, limit);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new JsonBodyError(413, `Payload Too Large: the body exceeds ${limit} bytes`);
    throw err;
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new JsonBodyError(400, 'Bad Request: the body is not valid JSON');
  }
}
