/**
 * OIDC / OAuth2 access tokens (JWT bearer): signature checked against the issuer's JWKS (fetched
 * and cached by `jose`), `iss`, `aud`, `exp` and `nbf` checked; agency and role from the
 * configured claims.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OidcConfig } from '../config/api.config';
import { AGENCY_ID_PATTERN } from './api-keys';
import type { Principal } from '../common/principal';

/** Agency of an ops token that carries no agency claim. */
export const OPS_DEFAULT_AGENCY = 'ops';

export type JwtCheck = { ok: true; principal: Principal } | { ok: false; reason: string };

export class JwtVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly config: OidcConfig) {
    this.jwks = createRemoteJWKSet(new URL(config.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  }

  /** True when `value` has the shape of a compact JWS (three base64url parts). */
  static looksLikeJwt(value: string): boolean {
    return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
  }

  async verify(token: string): Promise<JwtCheck> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, { issuer: this.config.issuer, audience: this.config.audience }));
    } catch (err) {
      return { ok: false, reason: jwtFailure(err) };
    }
    const roles = payload[this.config.roleClaim];
    const roleList = Array.isArray(roles) ? roles : [roles];
    const role = roleList.includes(this.config.opsRole) ? 'ops' : 'agency';
    const agency = payload[this.config.agencyClaim];
    const sub = typeof payload.sub === 'string' ? payload.sub.slice(0, 100) : 'unknown';
    if (typeof agency === 'string' && AGENCY_ID_PATTERN.test(agency)) {
      return { ok: true, principal: { agencyId: agency, role, method: 'jwt', id: `jwt:${sub}` } };
    }
    if (agency === undefined && role === 'ops') {
      return { ok: true, principal: { agencyId: OPS_DEFAULT_AGENCY, role, method: 'jwt', id: `jwt:${sub}` } };
    }
    return { ok: false, reason: `claim ${this.config.agencyClaim} missing or not an agency id` };
  }
}

function jwtFailure(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `claim ${err.claim} invalid`;
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (err instanceof errors.JWKSNoMatchingKey) return 'no matching key';
  if (err instanceof errors.JOSEError) return err.code;
  return 'unverifiable';
}
