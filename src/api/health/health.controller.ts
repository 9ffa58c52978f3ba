/**
 * Liveness and readiness of the API (docs/operations.md, "Health"):
 * - `GET /health/live`: the process serves HTTP; checks nothing else. Restart the API when it fails.
 * - `GET /health/ready` (and `GET /health`, the same): 200 when Temporal answers and its namespace
 *   has the booking search attributes, since every route needs them; 503 when it does not (the
 *   error then names the missing attributes and the command that registers them). An outage of an
 *   airline does not make the API unready (it still accepts, lists and shows bookings; sagas skip
 *   it or wait and retry): `status: 'degraded'`, 200. Each configured airline is probed at
 *   `<baseUrl>/health`.
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Client } from '@temporalio/client';
import type { HttpResponse as Response } from '../common/http.types';
import { API_CONFIG, TEMPORAL_CLIENT } from '../common/api.tokens';
import { Public } from '../auth/auth.decorators';
import type { ApiConfig } from '../config/api.config';
import { probeSearchAttributes } from '../../temporal/search-attributes.check';

/** Per-dependency probe timeout (ms). */
export const HEALTH_TIMEOUT_MS = 3000;

export interface DependencyHealth {
  status: 'up' | 'down';
  /** Why it is down (no secrets). */
  error?: string;
  [detail: string]: unknown;
}

/** `ok`: all up; `degraded`: ready, but an airline is down; `unavailable`: not ready (Temporal down). */
export type ReadinessStatus = 'ok' | 'degraded' | 'unavailable';

export interface HealthReport {
  status: ReadinessStatus;
  temporal: DependencyHealth;
  /** Each configured airline, by designator. */
  airlines: Record<string, DependencyHealth>;
}

/** Readiness from the probes: Temporal decides readiness, an airline only degrades it. */
export function readiness(
  temporal: DependencyHealth,
  airlines: readonly DependencyHealth[],
): { status: ReadinessStatus; httpStatus: 200 | 503 } {
  if (temporal.status === 'down') return { status: 'unavailable', httpStatus: 503 };
  return { status: airlines.every((airline) => airline.status === 'up') ? 'ok' : 'degraded', httpStatus: 200 };
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process serves HTTP (no dependency is checked)' })
  @ApiResponse({ status: 200, description: '{"status":"ok"}' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: Temporal answers (an airline outage only degrades it)' })
  @ApiResponse({ status: 200, description: 'Ready: status ok, or degraded when the airline is down' })
  @ApiResponse({
    status: 503,
    description: 'Not ready: Temporal does not answer or lacks search attributes; details say why',
  })
  ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    return this.report(res);
  }

  @Get()
  @ApiOperation({ summary: 'Same as /health/ready' })
  @ApiResponse({ status: 200, description: 'Ready: status ok, or degraded when the airline is down' })
  @ApiResponse({
    status: 503,
    description: 'Not ready: Temporal does not answer or lacks search attributes; details say why',
  })
  health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    return this.report(res);
  }

  private async report(res: Response): Promise<HealthReport> {
    const [temporal, ...airlines] = await Promise.all([
      this.temporal(),
      ...this.config.airlines.map((profile) => this.airline(profile.client.retailBaseUrl)),
    ]);
    const verdict = readiness(temporal, airlines);
    res.status(verdict.httpStatus);
    const byCode = Object.fromEntries(this.config.airlines.map((profile, i) => [profile.code, airlines[i]!]));
    return { status: verdict.status, temporal, airlines: byCode };
  }

  private async temporal(): Promise<DependencyHealth> {
    const base = { address: this.config.temporalAddress, namespace: this.config.temporalNamespace };
    try {
      const deadline = Date.now() + HEALTH_TIMEOUT_MS;
      const info = await this.client.withDeadline(deadline, () =>
        this.client.connection.workflowService.getSystemInfo({}),
      );
      const attributes = await this.client.withDeadline(deadline, () =>
        probeSearchAttributes(this.client.connection, this.config.temporalNamespace),
      );
      const serverVersion = info.serverVersion ?? undefined;
      if (attributes.status === 'down')
        return {
          status: 'down',
          ...base,
          serverVersion,
          error: attributes.error,
          missingSearchAttributes: attributes.missing,
        };
      return { status: 'up', ...base, serverVersion, searchAttributes: attributes.status };
    } catch (err) {
      return { status: 'down', ...base, error: (err as Error).message };
    }
  }

  private async airline(baseUrl: string): Promise<DependencyHealth> {
    const url = `${baseUrl}/health`;
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      await r.arrayBuffer();
      if (r.ok) return { status: 'up', url, httpStatus: r.status };
      return { status: 'down', url, httpStatus: r.status, error: `HTTP ${r.status}` };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      return { status: 'down', url, error: e.cause?.code ?? e.name };
    }
  }
}
