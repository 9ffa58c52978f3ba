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

/** Digest of the expected `username:password` (one configuration per process, so one entry in practice). */
const expectedDigests = new Map<string, Buffer>();

function expectedDigest(credentials: string): Buffer {
  let d = expectedDigests.get(credentials);
  if (!d) {
    if (expectedDigests.size >= 8) expectedDigests.clear();
    d = digest(credentials);
    expectedDigests.set(credentials, d);
  }
  return d;
}

/** True when `header` carries exactly `username:password` as Basic credentials. */
export function basicCredentialsMatch(header: string | undefined, username: string, password: string): boolean {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  // Constant-time comparison of fixed-length digests.
  return timingSafeEqual(digest(decoded), expectedDigest(`${username}:${password}`));
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
