/**
 * HTTP Basic authentication of the retail interface (`/retail/*`). Missing
 * or wrong credentials: 401 with `WWW-Authenticate: Basic realm=...`.
 */
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';

/** Thrown by the guard; the exception filter answers 401 with the challenge. */
export class UnauthorizedRetailError extends Error {
  readonly code = 'UNAUTHORIZED';
}

function digest(s: string): Buffer {
  return hash('sha256', s, 'buffer');
}

/** What is expected of the configured `username:password`, for the last pair asked (one configuration per process in practice). */
interface Expected {
  username: string;
  password: string;
  /** SHA-256 of `username:password`. */
  digest: Buffer;
  /** The header a client normally sends: `Basic ` and the base64 of `username:password`. */
  header: Buffer;
}

let expected: Expected | undefined;

function expectedFor(username: string, password: string): Expected {
  // The configuration's own strings come back on every request: comparing them is a pointer check.
  if (expected?.username !== username || expected.password !== password) {
    const credentials = `${username}:${password}`;
    expected = {
      username,
      password,
      digest: digest(credentials),
      header: Buffer.from(`Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`, 'latin1'),
    };
  }
  return expected;
}

/**
 * True when `header` carries exactly `username:password` as Basic credentials.
 * Secrets are only compared in constant time. The usual form of the header
 * (`Basic` + one space + canonical base64) is compared as bytes first; any
 * other header (another spelling of the scheme, extra spaces, wrong
 * credentials) is decoded and its SHA-256 compared with the expected one's,
 * so what timing can tell is whether a header has the usual form's length.
 */
export function basicCredentialsMatch(header: string | undefined, username: string, password: string): boolean {
  if (header === undefined) return false;
  const e = expectedFor(username, password);
  if (header.length === e.header.length && timingSafeEqual(Buffer.from(header, 'latin1'), e.header)) return true;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return false;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  return timingSafeEqual(digest(decoded), e.digest);
}

@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(@Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    if (basicCredentialsMatch(req.headers.authorization, this.config.username, this.config.password)) return true;
    throw new UnauthorizedRetailError('missing or wrong credentials');
  }
}
