/**
 * HTTP Basic authentication of the retail interface (`/retail/*`) and of the
 * fault simulator. Missing or wrong credentials: 401 with
 * `WWW-Authenticate: Basic realm=...` (written by the exception filter).
 */
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { BasicCredentials } from '../../common/basic-credentials';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';

/** Thrown by the guard; the exception filter answers 401 with the challenge. */
export class UnauthorizedRetailError extends Error {
  readonly code = 'UNAUTHORIZED';
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
