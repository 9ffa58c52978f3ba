/** HTTP routes of batches. */
import { Body, Controller, Get, Headers, Inject, Param, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_CLOCK, API_CONFIG } from '../common/api.tokens';
import type { ApiConfig } from '../config/api.config';
import { Caller } from '../common/caller.decorator';
import { intentForCaller } from '../auth/intent-agency';
import type { Principal } from '../common/principal';
import { ApiError } from '../common/api-error';
import type { HttpResponse as Response } from '../common/http.types';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';
import { IntakeRoute } from '../common/intake.decorators';
import { RequestId } from '../common/request-id';
import { noteIntake } from '../common/answer-notes';
import { utcToday, IntentValidator } from '../bookings/booking.dto';
import { splitBatchBody } from './batch-body';
import { BatchService, type BatchAccepted, type BatchView } from './batch.service';

@ApiTags('batches')
@Authenticated()
@Controller('batches')
export class BatchController {
  private readonly validator: IntentValidator;

  constructor(
    private readonly batches: BatchService,
    @Inject(API_CLOCK) private readonly now: () => Date,
    @Inject(API_CONFIG) config: ApiConfig,
  ) {
    this.validator = new IntentValidator(config.airlines.map((airline) => airline.code));
  }

  @IntakeRoute({
    summary: 'Submit many intents; each becomes a child booking of one batch workflow',
    idempotencyKey: 'Same key (per agency) and body: the same batch.',
    accepted: { description: 'Accepted (Location: the batch)', schema: 'BatchAccepted' },
    problems: [
      [400, 'Invalid intents: paths start with the index, e.g. [2].journey.origin'],
      [403, 'An intent names another agency'],
    ],
  })
  @ApiBody({
    description:
      'An array of intents, or `{intents, atomic}`: with `atomic: true` every intent must end CONFIRMED, else the confirmed ones are cancelled (COMPENSATED)',
    schema: {
      oneOf: [
        { type: 'array', items: { $ref: '#/components/schemas/BookingIntent' } },
        {
          type: 'object',
          required: ['intents'],
          properties: {
            intents: { type: 'array', items: { $ref: '#/components/schemas/BookingIntent' } },
            atomic: { type: 'boolean' },
          },
        },
      ],
    },
  })
  async create(
    @Body() body: unknown,
    @Caller() caller: Principal,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
  ): Promise<BatchAccepted> {
    const split = splitBatchBody(body);
    if (!split.ok) throw new ApiError('INVALID_INTENT', 'Invalid batch', { fields: split.fields });
    const prefix = split.wrapped ? 'intents' : '';
    const checked = this.validator.batch(split.intents, utcToday(this.now()));
    if (!checked.ok) {
      const fields = checked.fields.map((f) => ({
        ...f,
        path: prefix + (f.path === '(body)' && prefix !== '' ? '' : f.path),
      }));
      throw new ApiError('INVALID_INTENT', 'Invalid booking intents', { fields });
    }
    const intents = checked.value.map((intent, i) => intentForCaller(intent, caller, `${prefix}[${i}].`));
    const accepted = await this.batches.create(intents, caller, key, requestId, split.atomic);
    res.setHeader('Location', accepted.links.self);
    noteIntake(res, accepted);
    return accepted;
  }

  @Get(':id')
  @ApiOperation({ summary: 'Progress of a batch: totals per status and the child booking ids' })
  @ApiResponse({ status: 200, description: 'Progress', schema: { $ref: '#/components/schemas/BatchView' } })
  @ProblemResponses([404, "Unknown id, or another agency's batch (answered alike)"])
  get(@Param('id') id: string, @Caller() caller: Principal): Promise<BatchView> {
    return this.batches.get(id, caller);
  }
}
