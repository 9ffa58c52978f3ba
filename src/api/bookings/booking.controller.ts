/** HTTP routes of bookings. Validation happens here, at the edge; the service trusts its input. */
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { HttpResponse as Response } from '../common/http.types';
import { API_CLOCK, API_CONFIG } from '../common/api.tokens';
import type { ApiConfig } from '../config/api.config';
import { Caller } from '../common/caller.decorator';
import { intentForCaller } from '../auth/intent-agency';
import type { Principal } from '../common/principal';
import { ApiError } from '../common/api-error';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';
import { IntakeRoute } from '../common/intake.decorators';
import { RequestId } from '../common/request-id';
import { noteIntake } from '../common/answer-notes';
import { BOOKING_STATUSES, utcToday, IntentValidator, validateListQuery, validateSeatSelection } from './booking.dto';
import type { BookingAccepted, BookingSummary, BookingView, ServicingAnswer, SignalSent } from '../common/api.schemas';
import { BookingReads } from './booking.reads';
import { BookingService } from './booking.service';
import { answer } from './servicing.controller';
import { validateCancel } from './servicing.dto';
import { ServicingService } from './servicing.service';

const NOT_FOUND: [number, string] = [404, "Unknown id, or another agency's booking (answered alike)"];

@ApiTags('bookings')
@Authenticated()
@Controller('bookings')
export class BookingController {
  private readonly validator: IntentValidator;

  constructor(
    private readonly bookings: BookingService,
    private readonly reads: BookingReads,
    private readonly servicing: ServicingService,
    @Inject(API_CLOCK) private readonly now: () => Date,
    @Inject(API_CONFIG) config: ApiConfig,
  ) {
    this.validator = new IntentValidator(config.airlines.map((airline) => airline.code));
  }

  @IntakeRoute({
    summary: 'Submit a booking intent; starts a booking saga',
    idempotencyKey: 'Same key (per agency) and same body: the same booking. Same key, different body: 422.',
    accepted: { description: 'Accepted (Location: the booking)', schema: 'BookingAccepted' },
    problems: [
      [400, 'Invalid intent: every bad field is named'],
      [403, 'The intent names another agency'],
    ],
  })
  @ApiBody({ schema: { $ref: '#/components/schemas/BookingIntent' } })
  async create(
    @Body() body: unknown,
    @Caller() caller: Principal,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<BookingAccepted> {
    const checked = this.validator.intent(body, utcToday(this.now()));
    if (!checked.ok) throw new ApiError('INVALID_INTENT', 'Invalid booking intent', { fields: checked.fields });
    const accepted = await this.bookings.create(intentForCaller(checked.value, caller), key, requestId);
    res.setHeader('Location', accepted.links.self);
    noteIntake(res, accepted);
    return accepted;
  }

  @Get()
  @ApiOperation({ summary: "List bookings from Temporal visibility (the caller's agency; ops: every agency)" })
  @ApiQuery({ name: 'status', required: false, enum: BOOKING_STATUSES })
  @ApiQuery({ name: 'agencyId', required: false, description: 'ops only: one agency' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 1000, default 100' })
  @ApiResponse({
    status: 200,
    description: 'Bookings, newest first',
    schema: { $ref: '#/components/schemas/BookingList' },
  })
  @ProblemResponses([400, 'Bad filter'], [403, 'An agency credential asked for another agency'])
  list(@Query() query: unknown, @Caller() caller: Principal): Promise<{ bookings: BookingSummary[] }> {
    const checked = validateListQuery(query);
    if (!checked.ok) throw new ApiError('INVALID_REQUEST', 'Invalid query parameters', { fields: checked.fields });
    return this.reads.list(checked.value, caller);
  }

  @Get(':id')
  @ApiOperation({ summary: 'State of a booking (status, current step, steps, offer, totals, order, error)' })
  @ApiParam({ name: 'id' })
  @ApiResponse({ status: 200, description: 'State', schema: { $ref: '#/components/schemas/BookingView' } })
  @ProblemResponses(NOT_FOUND)
  get(@Param('id') id: string, @Caller() caller: Principal): Promise<BookingView> {
    return this.reads.get(id, caller);
  }

  @Get(':id/order')
  @ApiOperation({
    summary: 'OrderViewRS XML of a booking whose order exists (CONFIRMED, HELD, CHANGING, ...): the order as it now is',
  })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 200, description: 'OrderViewRS (NDC 17.2 XML)' })
  @ProblemResponses(NOT_FOUND, [409, 'ORDER_NOT_READY: no order (yet), or cancelled or expired'])
  async order(
    @Param('id') id: string,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const xml = await this.reads.order(id, caller);
    res.type('application/xml; charset=utf-8');
    return xml;
  }

  @Post(':id/seats')
  @HttpCode(202)
  @ApiOperation({ summary: "The traveller's seats (update selectSeats); the booking then prices and goes on" })
  @ApiBody({ schema: { $ref: '#/components/schemas/SeatSelection' } })
  @ApiResponse({
    status: 202,
    description: 'Seats accepted (Location: the booking)',
    schema: { $ref: '#/components/schemas/SignalSent' },
  })
  @ProblemResponses(
    [400, 'Invalid body: every bad field is named'],
    NOT_FOUND,
    [409, 'Not awaiting a seat selection'],
    [422, 'A seat is taken or unknown, or an unknown passenger or segment: the booking keeps waiting'],
  )
  async selectSeats(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignalSent> {
    const checked = validateSeatSelection(body);
    if (!checked.ok) throw new ApiError('INVALID_REQUEST', 'Invalid seat selection', { fields: checked.fields });
    const sent = await this.bookings.selectSeats(id, caller, checked.value.seats);
    res.setHeader('Location', sent.links.self);
    return sent;
  }

  @Post(':id/approve-price')
  @HttpCode(202)
  @ApiOperation({ summary: 'Approve a priced total above selection.maxTotal (signal approvePrice)' })
  @ApiResponse({
    status: 202,
    description: 'Signal sent (Location: the booking)',
    schema: { $ref: '#/components/schemas/SignalSent' },
  })
  @ProblemResponses(NOT_FOUND, [409, 'Not awaiting approval'])
  async approvePrice(
    @Param('id') id: string,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignalSent> {
    const sent = await this.bookings.approvePrice(id, caller);
    res.setHeader('Location', sent.links.self);
    return sent;
  }

  @Post(':id/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Cancel a booking: before its order (signal cancel), or once its order exists (update cancelBooking: OrderCancel at the airline, answered with the refund). With `passengers`: remove those travellers (update removePassengers), the others keep flying',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'With passengers: the update id (the same key again is the same removal)',
  })
  @ApiBody({ required: false, schema: { $ref: '#/components/schemas/CancelRequest' } })
  @ApiResponse({
    status: 202,
    description:
      'Whole booking: signal or update sent (Location: the booking), with the cancellation once settled. With passengers, still running: the booking as it is',
    schema: { $ref: '#/components/schemas/SignalSent' },
  })
  @ApiResponse({
    status: 200,
    description: 'With passengers, done: the booking without them, and the refund',
    schema: { $ref: '#/components/schemas/ServicingAnswer' },
  })
  @ProblemResponses(
    [400, 'Invalid body: every bad field is named'],
    NOT_FOUND,
    [
      409,
      'BOOKING_NOT_CANCELLABLE (finished, or its order is being placed); with passengers BOOKING_BUSY, NOT_SERVICEABLE',
    ],
    [422, 'With passengers: INVALID_SERVICING_REQUEST (not on the order, everyone, an infant left without its adult)'],
    [502, 'With passengers: the airline failed the removal, or its outcome is unknown'],
  )
  async cancel(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<SignalSent | ServicingAnswer> {
    const checked = validateCancel(body);
    if (!checked.ok) throw new ApiError('INVALID_REQUEST', 'Invalid cancel request', { fields: checked.fields });
    const { passengers, reason } = checked.value;
    if (passengers !== undefined) {
      const removal = { passengers, ...(reason !== undefined ? { reason } : {}) };
      return answer(res, await this.servicing.removePassengers(id, caller, removal, key));
    }
    const sent = await this.bookings.cancel(id, caller, reason);
    res.setHeader('Location', sent.links.self);
    return sent;
  }
}
