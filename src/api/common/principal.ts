/**
 * Who is calling the booking API, as established by authentication (API key or JWT bearer token).
 * Every controller takes the caller from here; an agency id in a request body is only ever
 * checked against it, never trusted.
 */

/** `agency`: one agency's own bookings. `ops`: every agency's, may filter by agency. */
export type Role = 'agency' | 'ops';

export interface Principal {
  /** The agency the credential belongs to (ops keys belong to an agency too, usually the operator's). */
  readonly agencyId: string;
  readonly role: Role;
  /** How the caller authenticated. */
  readonly method: 'api-key' | 'jwt' | 'loopback-dev';
  /** Safe to log: an API key's public prefix or a JWT's `sub`. Never the secret. */
  readonly id: string;
}

/** The agency a read or action is scoped to: `undefined` for ops (every agency). */
export function agencyScope(principal: Principal): string | undefined {
  return principal.role === 'ops' ? undefined : principal.agencyId;
}
