/** `GET /health` (no auth): liveness for launchers and orchestrators. */
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AirlineConfig } from '../airline.config';
import { AIRLINE_CONFIG } from '../airline.tokens';
import { jsonReply, sendReply } from './reply';

@Controller('health')
export class HealthController {
  constructor(@Inject(AIRLINE_CONFIG) private readonly config: AirlineConfig) {}

  @Get()
  health(@Req() req: IncomingMessage, @Res() res: ServerResponse): void {
    sendReply(req, res, jsonReply(200, { status: 'ok', airline: this.config.airlineCode }));
  }
}
