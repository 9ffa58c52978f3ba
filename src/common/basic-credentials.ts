/**
 * HTTP Basic credentials checked in constant time: the embedded airline's retail interface and
 * the API's airline notification endpoint use it.
 */
import { hash, timingSafeEqual } from 'node:crypto';

function digest(s: string): Buffer {
  return hash('sha256', s, 'buffer');
}

/**
 * Checks Basic credentials against one expected `username:password`. Secrets
 * are only compared in constant time, as SHA-256 digests of the decoded
 * credentials (so the comparison's length never depends on the secret).
 */
export class BasicCredentials {
  private readonly expected: Buffer;

  constructor(username: string, password: string) {
    this.expected = digest(`${username}:${password}`);
  }

  /** True when `header` carries exactly the expected credentials (any spelling of the `Basic` scheme). */
  matches(header: string | undefined): boolean {
    if (header === undefined) return false;
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m) return false;
    return timingSafeEqual(digest(Buffer.from(m[1], 'base64').toString('utf8')), this.expected);
  }
}
