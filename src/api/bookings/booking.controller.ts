/** HTTP routes of bookings. Validation happens here, at the edge; the service trusts its input. */
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { HttpResponse as Response } from '../common/http.types';
import { API_CLOCK } from '../api.tokens';
import { ApiError } from '../common/api-error';
import { utcToday, validateIntent } from './booking.dto';
import { BookingService, type BookingAccepted, type BookingSummary, type BookingView } from './booking.service';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

@ApiTags('bookings')
@Controller('bookings')
export class BookingController {
  constructor(
    private readonly bookings: BookingService,
    @Inject(API_CLOCK) private readonly now: () => Date,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Submit a booking intent; starts a booking saga' })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same key (per agency) and same body: the same booking. Same key, different body: 422.',
  })
  @ApiBody({ schema: { $ref: '#/components/schemas/BookingIntent' } })
  @ApiResponse({ status: 202, description: 'Accepted', schema: { $ref: '#/components/schemas/BookingAccepted' } })
  @ApiResponse({ status: 400, description: 'Invalid intent: every bad field is named', schema: ERROR_REF })
  @ApiResponse({ status: 422, description: 'Idempotency-Key reused with a different body', schema: ERROR_REF })
  async create(@Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<BookingAccepted> {
    const checked = validateIntent(body, utcToday(this.now()));
    if (!checked.ok) throw new ApiError('INVALID_INTENT', 'Invalid booking intent', checked.fields);
    return this.bookings.create(checked.value, key);
  }

  @Get()
  @ApiOperation({ summary: 'List bookings from Temporal visibility' })
  @ApiQuery({ name: 'status', required: false, enum: ['RUNNING', 'AWAITING_APPROVAL', 'CONFIRMED', 'FAILED', 'CANCELLED'] })
  @ApiQuery({ name: 'agencyId', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 1000, default 100' })
  @ApiResponse({ status: 200, description: 'Bookings, newest first', schema: { $ref: '#/components/schemas/BookingList' } })
  list(
    @Query('status') status?: string,
    @Query('agencyId') agencyId?: string,
    @Query('limit') limit?: string,
  ): Promise<{ bookings: BookingSummary[] }> {
    return this.bookings.list({ status, agencyId, limit });
  }

  @Get(':id')
  @ApiOperation({ summary: 'State of a booking (status, current step, steps, offer, totals, order, error)' })
  @ApiParam({ name: 'id' })
  @ApiResponse({ status: 200, description: 'State', schema: { $ref: '#/components/schemas/BookingView' } })
  @ApiResponse({ status: 404, description: 'Unknown id', schema: ERROR_REF })
  get(@Param('id') id: string): Promise<BookingView> {
    return this.bookings.get(id);
  }

  @Get(':id/order')
  @ApiOperation({ summary: 'OrderViewRS XML of a confirmed booking' })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'OrderViewRS (NDC 17.2 XML)' })
  @ApiResponse({ status: 404, description: 'Unknown id', schema: ERROR_REF })
  @ApiResponse({ status: 409, description: 'Not confirmed (yet)', schema: ERROR_REF })
  async order(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const xml = await this.bookings.order(id);
    res.type('application/xml; charset=utf-8');
    return xml;
  }

  @Post(':id/approve-price')
  @HttpCode(202)
  @ApiOperation({ summary: 'Approve a priced total above selection.maxTotal (signal approvePrice)' })
  @ApiResponse({ status: 202, description: 'Signal sent' })
  @ApiResponse({ status: 409, description: 'Not awaiting approval', schema: ERROR_REF })
  approvePrice(@Param('id') id: string) {
    return this.bookings.approvePrice(id);
  }

  @Post(':id/cancel')
  @HttpCode(202)
  @ApiOperation({ summary: 'Cancel a booking that has no order yet (signal cancel)' })
  @ApiResponse({ status: 202, description: 'Signal sent' })
  @ApiResponse({ status: 409, description: 'Finished or already ordered', schema: ERROR_REF })
  cancel(@Param('id') id: string) {
    return this.bookings.cancel(id);
  }
}
