/**
 * HTTP Basic authentication of the retail interface (`/retail/*`) and of the
 * fault simulator. Missing or wrong credentials: 401 with
 * `WWW-Authenticate: Basic realm=...` (written by the exception filter).
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

@Injectable()
export class BasicAuthGuard implements CanActivate {
  private readonly credentials: BasicCredentials;

  constructor(@Inject(AIRLINE_CONFIG) config: AirlineConfig) {
    this.credentials = new BasicCredentials(config.username, config.password);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    if (this.credentials.matches(req.headers.authorization)) return true;
    throw new UnauthorizedRetailError('missing or wrong credentials');
  }
}
