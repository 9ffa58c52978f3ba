/**
 * HTTP routes of the order after the booking (docs/api.md, "After the booking"): pay a held
 * booking, change the trip, services and seats, refund quotes. Bodies are validated here, at the
 * edge; the service sends them to the booking's workflow as updates. (`POST /bookings/{id}/cancel`
 * with `passengers` is in BookingController, beside the whole cancel.)
 */
import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/api-error';
import { API_CLOCK } from '../common/api.tokens';
import type {
  ChangeOffersAnswer,
  OrderServicesAnswer,
  RefundQuoteAnswer,
  SeatMapView,
  ServicingAnswer,
} from '../common/api.schemas';
import { Caller } from '../common/caller.decorator';
import type { HttpResponse as Response } from '../common/http.types';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';
import type { Principal } from '../common/principal';
import type { ValidationResult } from '../common/validation';
import { utcToday } from './booking.dto';
import { bookingLinks } from './booking.reads';
import {
  validateAddServices,
  validateAirlineChange,
  validateCancelQuote,
  validateChangeOffers,
  validateChangeTrip,
  validatePayBooking,
} from './servicing.dto';
import { ServicingService, type ServicingOutcome } from './servicing.service';

const NOT_FOUND: [number, string] = [404, "Unknown id, or another agency's booking (answered alike)"];
const BUSY: [number, string] = [
  409,
  'BOOKING_BUSY (another servicing action of the booking runs), NOT_SERVICEABLE (its status does not allow it, or it has ended)',
];
const AIRLINE: [number, string][] = [
  [
    502,
    "The airline failed the action, or its outcome is unknown (detail: check the order); the code is the failure's type",
  ],
  [503, 'No worker took the request in time, or the airline is unreachable (Retry-After)'],
];
const IDEMPOTENCY =
  'Optional: the update id (per route). The same key again is the same request: answered with its outcome, never done twice.';

/** A route that reads from the order: answered once the airline has. */
function ServicingRead(summary: string, answer: string, ...problems: [number, string][]) {
  return applyDecorators(
    ApiOperation({ summary }),
    ApiParam({ name: 'id' }),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: IDEMPOTENCY }),
    ApiResponse({ status: 200, description: 'The answer', schema: { $ref: `#/components/schemas/${answer}` } }),
    ProblemResponses(NOT_FOUND, BUSY, ...AIRLINE, ...problems),
  );
}

/** A route that changes the booking: 200 when done within the query timeout, else 202 (Location). */
function ServicingWrite(summary: string, body: string, ...problems: [number, string][]) {
  const view = { $ref: '#/components/schemas/ServicingAnswer' };
  return applyDecorators(
    HttpCode(200),
    ApiOperation({ summary }),
    ApiParam({ name: 'id' }),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: IDEMPOTENCY }),
    ApiBody({ schema: { $ref: `#/components/schemas/${body}` } }),
    ApiResponse({ status: 200, description: 'Done: the booking as it now is', schema: view }),
    ApiResponse({
      status: 202,
      description:
        'Still running (3-D Secure: `authentication.redirectUrl`; a price approval): the booking as it is (Location). Follow it, or send the request again with the same Idempotency-Key for its outcome',
      schema: view,
    }),
    ProblemResponses(NOT_FOUND, ...AIRLINE, ...problems),
  );
}

/** The value of a valid body; a bad one is a 400 naming every bad field. */
function valid<T>(checked: ValidationResult<T>, what: string): T {
  if (!checked.ok) throw new ApiError('INVALID_REQUEST', `Invalid ${what}`, { fields: checked.fields });
  return checked.value;
}

@ApiTags('bookings')
@Authenticated()
@Controller('bookings')
export class ServicingController {
  constructor(
    private readonly servicing: ServicingService,
    @Inject(API_CLOCK) private readonly now: () => Date,
  ) {}

  @Post(':id/payment')
  @ServicingWrite(
    'Pay a HELD booking (update payBooking): reprice after the price guarantee, the price guard, 3-D Secure; then CONFIRMED',
    'PayBooking',
    [400, 'Invalid body: every bad field is named (the card rules of the intent)'],
    [402, 'AUTHENTICATION_FAILED, AUTHENTICATION_TIMEOUT: 3-D Secure did not authenticate the payment'],
    [409, 'BOOKING_BUSY, NOT_SERVICEABLE (not HELD), PRICE_NOT_APPROVED, CANCELLED'],
    [422, 'INVALID_CARD'],
  )
  async pay(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<ServicingAnswer> {
    const request = valid(validatePayBooking(body, utcToday(this.now())), 'payment');
    return answer(res, await this.servicing.pay(id, caller, request, key));
  }

  @Post(':id/airline-change')
  @ServicingWrite(
    'Answer a change the airline made (ACTION_REQUIRED, update answerAirlineChange): accept it, rebook on an offer of change-offers (fee waived), or cancel (full refund); recorded as airlineChange.action',
    'AirlineChangeAnswer',
    [400, 'Invalid body: every bad field is named'],
    [404, 'OFFER_UNKNOWN: ask for change offers first (also: unknown booking)'],
    [409, 'BOOKING_BUSY, NOT_SERVICEABLE (not ACTION_REQUIRED), OFFER_EXPIRED'],
    [422, 'CARD_REQUIRED, INVALID_CARD'],
  )
  async answerAirlineChange(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<ServicingAnswer> {
    const request = valid(validateAirlineChange(body, utcToday(this.now())), 'airline change answer');
    return answer(res, await this.servicing.answerAirlineChange(id, caller, request, key));
  }

  @Post(':id/change-offers')
  @HttpCode(200)
  @ServicingRead(
    "The airline's offers to move the trip to other dates (update changeOffers); each valid until its expiresAt",
    'ChangeOffers',
    [400, 'Invalid body: every bad field is named'],
  )
  @ApiBody({ schema: { $ref: '#/components/schemas/ChangeOffersRequest' } })
  changeOffers(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Headers('idempotency-key') key?: string,
  ): Promise<ChangeOffersAnswer> {
    const request = valid(validateChangeOffers(body, utcToday(this.now())), 'change request');
    return this.servicing.changeOffers(id, caller, request, key);
  }

  @Post(':id/changes')
  @ServicingWrite(
    'Take a change offer (update changeTrip): CHANGING, then CONFIRMED on the new flights',
    'ChangeTrip',
    [400, 'Invalid body: every bad field is named'],
    [402, 'AUTHENTICATION_FAILED, AUTHENTICATION_TIMEOUT'],
    [404, 'OFFER_UNKNOWN: ask for change offers first (also: unknown booking)'],
    [409, 'BOOKING_BUSY, NOT_SERVICEABLE, OFFER_EXPIRED, DIFFERENCE_ABOVE_MAX (nothing changed)'],
    [422, 'CARD_REQUIRED (something is due), INVALID_CARD'],
  )
  async changeTrip(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<ServicingAnswer> {
    const request = valid(validateChangeTrip(body, utcToday(this.now())), 'change');
    return answer(res, await this.servicing.changeTrip(id, caller, request, key));
  }

  @Get(':id/services')
  @ServicingRead('The services on sale for the order (update orderServices)', 'OrderServices')
  services(
    @Param('id') id: string,
    @Caller() caller: Principal,
    @Headers('idempotency-key') key?: string,
  ): Promise<OrderServicesAnswer> {
    return this.servicing.orderServices(id, caller, key);
  }

  @Post(':id/services')
  @ServicingWrite(
    'Add bags and seats to the order (update addServices), paying for them',
    'AddServices',
    [400, 'Invalid body: every bad field is named'],
    [402, 'AUTHENTICATION_FAILED, AUTHENTICATION_TIMEOUT'],
    [409, 'BOOKING_BUSY, NOT_SERVICEABLE'],
    [
      422,
      'INVALID_SERVICING_REQUEST (a seat taken, a code not on sale, a passenger not on the order: named; nothing charged), CARD_REQUIRED, INVALID_CARD',
    ],
  )
  async addServices(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<ServicingAnswer> {
    const request = valid(validateAddServices(body, utcToday(this.now())), 'services');
    return answer(res, await this.servicing.addServices(id, caller, request, key));
  }

  @Get(':id/seat-map')
  @ApiOperation({
    summary:
      "Seat map: while AWAITING_SEAT_SELECTION the one the booking read (no airline call); once the order exists, the order's (update orderSeatMap)",
  })
  @ApiParam({ name: 'id' })
  @ApiResponse({ status: 200, description: 'Seat map', schema: { $ref: '#/components/schemas/SeatMapView' } })
  @ProblemResponses(
    NOT_FOUND,
    [409, 'NOT_AWAITING_SEATS (no seat selection and no order), BOOKING_BUSY, NOT_SERVICEABLE'],
    [422, 'INVALID_SERVICING_REQUEST: the airline has no seat map for this order'],
    ...AIRLINE,
  )
  seatMap(@Param('id') id: string, @Caller() caller: Principal): Promise<SeatMapView> {
    return this.servicing.seatMap(id, caller);
  }

  @Post(':id/cancel-quote')
  @HttpCode(200)
  @ServicingRead(
    'What cancelling would refund now, for the whole booking or the travellers named (update cancelQuote); nothing changes',
    'RefundQuote',
    [400, 'Invalid body: every bad field is named'],
    [422, 'INVALID_SERVICING_REQUEST: a traveller not on the order, or one an infant needs'],
  )
  @ApiBody({ required: false, schema: { $ref: '#/components/schemas/CancelQuoteRequest' } })
  cancelQuote(
    @Param('id') id: string,
    @Body() body: unknown,
    @Caller() caller: Principal,
    @Headers('idempotency-key') key?: string,
  ): Promise<RefundQuoteAnswer> {
    return this.servicing.cancelQuote(id, caller, valid(validateCancelQuote(body), 'quote request'), key);
  }
}

/** 200 with the booking when the action is done; 202 with Location while it still runs. */
export function answer(res: Response, outcome: ServicingOutcome): ServicingAnswer {
  res.status(outcome.done ? 200 : 202);
  if (!outcome.done) res.setHeader('Location', bookingLinks(outcome.view.id).self);
  return outcome.view;
}
