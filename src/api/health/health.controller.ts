/** GET /health: the Temporal connection and the airline, 200 when both answer, else 503. */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Client } from '@temporalio/client';
import type { HttpResponse as Response } from '../common/http.types';
import { API_CONFIG, TEMPORAL_CLIENT } from '../api.tokens';
import { Public } from '../auth/auth.decorators';
import type { ApiConfig } from '../config/api.config';

/** Per-dependency probe timeout (ms). */
export const HEALTH_TIMEOUT_MS = 3000;

export interface DependencyHealth {
  status: 'up' | 'down';
  /** Why it is down (no secrets). */
  error?: string;
  [detail: string]: unknown;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  temporal: DependencyHealth;
  airline: DependencyHealth;
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Reports the Temporal connection and the airline' })
  @ApiResponse({ status: 200, description: 'Both answer' })
  @ApiResponse({ status: 503, description: 'At least one does not; details say which' })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const [temporal, airline] = await Promise.all([this.temporal(), this.airline()]);
    const ok = temporal.status === 'up' && airline.status === 'up';
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', temporal, airline };
  }

  private async temporal(): Promise<DependencyHealth> {
    const base = { address: this.config.temporalAddress, namespace: this.config.temporalNamespace };
    try {
      const info = await this.client.withDeadline(Date.now() + HEALTH_TIMEOUT_MS, () =>
        this.client.connection.workflowService.getSystemInfo({}),
      );
      return { status: 'up', ...base, serverVersion: info.serverVersion ?? undefined };
    } catch (err) {
      return { status: 'down', ...base, error: (err as Error).message };
    }
  }

  private async airline(): Promise<DependencyHealth> {
    const url = `${this.config.airlineBaseUrl}/health`;
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
