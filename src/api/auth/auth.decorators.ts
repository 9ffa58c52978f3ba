/**
 * Route metadata read by the global {@link AuthGuard}: every route needs a credential unless it
 * is marked `@Public()`; `@RequireRole('ops')` narrows it to ops; `@LoopbackDevOpen()` lets the
 * embedded dev stack reach it from loopback without a credential (the codec endpoints).
 */
import { SetMetadata } from '@nestjs/common';
import type { Role } from '../common/principal';

export const PUBLIC_ROUTE = Symbol('PUBLIC_ROUTE');
export const REQUIRED_ROLE = Symbol('REQUIRED_ROLE');
export const LOOPBACK_DEV_OPEN = Symbol('LOOPBACK_DEV_OPEN');

/** No credential needed (health). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
/** Only callers with this role (ops). */
export const RequireRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
/** Open without a credential from a loopback address when CODEC_OPEN_ON_LOOPBACK is set (dev stack). */
export const LoopbackDevOpen = () => SetMetadata(LOOPBACK_DEV_OPEN, true);
