/**
 * Per-agency rate limit of the routes that start workflows (`POST /bookings`, `POST /batches`):
 * RATE_LIMIT_POINTS requests per RATE_LIMIT_WINDOW_S seconds per agency of the credential, then
 * 429 with `Retry-After`. In memory (`rate-limiter-flexible`): each API instance counts on its
 * own, so N instances behind a balancer allow up to N times the limit.
 */
import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { RATE_LIMITER } from './api.tokens';
import { principalOf } from './caller.decorator';
import { ApiError } from './api-error';

/** The limiter for `points` requests per `windowS` seconds; undefined when `points` is 0 (no limit). */
export function createRateLimiter(points: number, windowS: number): RateLimiterMemory | undefined {
  return points > 0 ? new RateLimiterMemory({ points, duration: windowS, keyPrefix: 'start' }) : undefined;
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(@Optional() @Inject(RATE_LIMITER) private readonly limiter?: RateLimiterMemory) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.limiter === undefined) return true;
    const principal = principalOf(context.switchToHttp().getRequest());
    try {
      await this.limiter.consume(principal.agencyId);
      return true;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new ApiError('RATE_LIMITED', `Too many bookings started for this agency: retry in ${retryAfter} s`, {
        details: { retryAfterSeconds: retryAfter },
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
  }
}
