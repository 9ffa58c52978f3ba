/** HTTP routes of batches. */
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_CLOCK } from '../api.tokens';
import { ApiError } from '../common/api-error';
import { utcToday, validateBatch } from '../bookings/booking.dto';
import { BatchService, type BatchAccepted, type BatchView } from './batch.service';

@ApiTags('batches')
@Controller('batches')
export class BatchController {
  constructor(
    private readonly batches: BatchService,
    @Inject(API_CLOCK) private readonly now: () => Date,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Submit many intents; each becomes a child booking of one batch workflow' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Same key and body: the same batch.' })
  @ApiBody({ schema: { type: 'array', items: { $ref: '#/components/schemas/BookingIntent' } } })
  @ApiResponse({ status: 202, description: 'Accepted' })
  @ApiResponse({ status: 400, description: 'Invalid intents: paths start with the index, e.g. [2].journey.origin' })
  async create(@Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<BatchAccepted> {
    const checked = validateBatch(body, utcToday(this.now()));
    if (!checked.ok) throw new ApiError('INVALID_INTENT', 'Invalid booking intents', checked.fields);
    return this.batches.create(checked.value, key);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Progress of a batch: totals per status and the child booking ids' })
  @ApiResponse({ status: 200, description: 'Progress' })
  @ApiResponse({ status: 404, description: 'Unknown id' })
  get(@Param('id') id: string): Promise<BatchView> {
    return this.batches.get(id);
  }
}
