/** `GET /health` (no auth): liveness for launchers and orchestrators. */
import { Controller, Get, Inject } from '@nestjs/common';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';

@Controller('health')
export class HealthController {
  constructor(@Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig) {}

  @Get()
  health(): { status: 'ok'; airline: string } {
    return { status: 'ok', airline: this.config.airlineCode };
  }
}
