/**
 * `GET /airlines`: the airlines this deployment books with (docs/api.md, "Airlines"): designator,
 * name, binding and rate limit, for any authenticated caller; never a credential or an address.
 */
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { airlineListing, type AirlineListing } from '../../ndc-client/airline-profile';
import { API_CONFIG } from '../common/api.tokens';
import type { ApiConfig } from '../config/api.config';
import { Authenticated } from '../common/openapi.decorators';

@ApiTags('airlines')
@Authenticated()
@Controller('airlines')
export class AirlineController {
  private readonly listing: { airlines: AirlineListing[] };

  constructor(@Inject(API_CONFIG) config: ApiConfig) {
    this.listing = { airlines: config.airlines.map(airlineListing) };
  }

  @Get()
  @ApiOperation({ summary: 'The configured airlines an intent may name in `airlines` (default: all of them)' })
  @ApiResponse({
    status: 200,
    description: 'In preference order',
    schema: { $ref: '#/components/schemas/AirlineList' },
  })
  list(): { airlines: AirlineListing[] } {
    return this.listing;
  }
}
