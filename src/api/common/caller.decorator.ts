/**
 * `@Caller()` hands a route the authenticated {@link Principal}. The authentication guard stores it
 * on the request under {@link PRINCIPAL_KEY}; a route reached without one is a wiring bug (500).
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal';

/** Request property the authentication guard sets. */
export const PRINCIPAL_KEY = 'principal';

export function principalOf(request: unknown): Principal {
  const principal = (request as Record<string, unknown>)[PRINCIPAL_KEY] as Principal | undefined;
  if (principal === undefined)
    throw new Error('no authenticated principal on the request (is the auth guard installed?)');
  return principal;
}

export const Caller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal =>
  principalOf(ctx.switchToHttp().getRequest()),
);
