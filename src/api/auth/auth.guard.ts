/**
 * The one authentication guard of the API (installed globally): `Authorization: Bearer <API key
 * or JWT>` becomes the request's {@link Principal}; routes marked `@Public()` pass without one.
 * A failed attempt is logged with the key's public prefix only (never the key or token).
 */
import { CanActivate, ExecutionContext, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_CONFIG, API_KEY_STORE, JWT_VERIFIER } from '../common/api.tokens';
import { ApiError } from '../common/api-error';
import type { ApiConfig } from '../config/api.config';
import { API_KEY_PREFIX, keyPrefix, type ApiKeyStore } from './api-keys';
import { LOOPBACK_DEV_OPEN, PUBLIC_ROUTE, REQUIRED_ROLE } from './auth.decorators';
import { PRINCIPAL_KEY } from '../common/caller.decorator';
import { JwtVerifier } from './jwt-verifier';
import type { Principal, Role } from '../common/principal';

interface AuthRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
  [PRINCIPAL_KEY]?: Principal;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The principal of a loopback caller of the dev stack's codec endpoints. */
export const LOOPBACK_DEV_PRINCIPAL: Principal = {
  agencyId: 'dev',
  role: 'ops',
  method: 'loopback-dev',
  id: 'loopback',
};

export function unauthenticated(detail: string): ApiError {
  return new ApiError('UNAUTHENTICATED', detail, { headers: { 'WWW-Authenticate': 'Bearer realm="ndc-saga"' } });
}

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly reflector: Reflector,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Optional() @Inject(API_KEY_STORE) private readonly keys?: ApiKeyStore,
    @Optional() @Inject(JWT_VERIFIER) private readonly jwt?: JwtVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true) return true;
    const req = context.switchToHttp().getRequest<AuthRequest>();
    const principal = await this.authenticate(
      req,
      this.reflector.getAllAndOverride<boolean>(LOOPBACK_DEV_OPEN, targets) === true,
    );
    req[PRINCIPAL_KEY] = principal;
    const required = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, targets);
    if (required === 'ops' && principal.role !== 'ops') {
      throw new ApiError('FORBIDDEN', 'This operation needs the ops role');
    }
    return true;
  }

  private async authenticate(req: AuthRequest, loopbackOpen: boolean): Promise<Principal> {
    const header = req.headers.authorization;
    if (header === undefined || header === '') {
      if (loopbackOpen && this.config.codecOpenOnLoopback && LOOPBACK.has(req.socket.remoteAddress ?? ''))
        return LOOPBACK_DEV_PRINCIPAL;
      this.fail(req, 'none', 'no credential');
      throw unauthenticated('This operation needs a credential: Authorization: Bearer <API key or access token>');
    }
    const m = typeof header === 'string' ? /^Bearer +(\S+)$/i.exec(header) : null;
    if (m === null) {
      this.fail(req, 'malformed', 'not a Bearer credential');
      throw unauthenticated('The Authorization header must be "Bearer <API key or access token>"');
    }
    const value = m[1]!;
    if (value.startsWith(API_KEY_PREFIX)) {
      const r = this.keys?.check(value) ?? ({ ok: false, reason: 'unknown' } as const);
      if (r.ok) return r.principal;
      this.fail(req, keyPrefix(value), `API key ${r.reason}`);
      throw unauthenticated('The API key is not valid');
    }
    if (this.jwt !== undefined && JwtVerifier.looksLikeJwt(value)) {
      const r = await this.jwt.verify(value);
      if (r.ok) return r.principal;
      this.fail(req, 'jwt', `token ${r.reason}`);
      throw unauthenticated('The access token is not valid');
    }
    this.fail(req, 'malformed', 'neither an API key nor an accepted token');
    throw unauthenticated('The credential is neither an API key nor an accepted access token');
  }

  /** Logs a failed authentication: the key's public prefix (or a fixed word) and why, never the secret. */
  private fail(req: AuthRequest, prefix: string, reason: string): void {
    this.logger.warn(`authentication failed: ${prefix} (${reason}) on ${req.method} ${req.path}`);
  }
}
