/** HTTP routes of webhook endpoints. Every route is scoped to the caller's agency (ops: any, with `agencyId`). */
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { WebhookDelivery } from '../../webhooks/webhook.model';
import { API_CLOCK } from '../common/api.tokens';
import { Caller } from '../common/caller.decorator';
import type { Principal } from '../common/principal';
import { AGENCY_ID_RE } from '../../booking/booking.schemas';
import { ApiError } from '../common/api-error';
import { Authenticated, ProblemResponses } from '../common/openapi.decorators';
import type { WebhookConfig } from './webhook.config';
import { validateWebhookCreate } from './webhook.dto';
import { WebhookService, type WebhookCreated, type WebhookView } from './webhook.service';
import { WEBHOOK_CONFIG } from './webhook.tokens';

const AGENCY_QUERY = {
  name: 'agencyId',
  required: false,
  description: "ops only: the agency to act for (default: the credential's)",
};

/** The agency a webhook route acts for: the caller's own; ops may name another. */
export function webhookAgency(caller: Principal, requested: string | undefined): string {
  if (requested === undefined || requested === '' || requested === caller.agencyId) return caller.agencyId;
  if (caller.role !== 'ops') {
    throw new ApiError('INVALID_REQUEST', 'agencyId may only be given by ops callers', {
      fields: [{ path: 'agencyId', message: 'is for ops callers only' }],
    });
  }
  if (!AGENCY_ID_RE.test(requested)) {
    throw new ApiError('INVALID_REQUEST', 'Invalid agencyId', {
      fields: [{ path: 'agencyId', message: 'must be 1-64 of A-Z a-z 0-9 _ . -' }],
    });
  }
  return requested;
}

@ApiTags('webhooks')
@Authenticated()
@Controller('webhooks')
export class WebhookController {
  constructor(
    private readonly webhooks: WebhookService,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
    @Inject(API_CLOCK) private readonly now: () => Date,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register an endpoint; the answer carries its signing secret, shown this once' })
  @ApiQuery(AGENCY_QUERY)
  @ApiBody({ schema: { $ref: '#/components/schemas/WebhookCreate' } })
  @ApiResponse({
    status: 201,
    description: 'Registered: `{id, url, events, description, createdAt, retry, secret, links}`',
  })
  @ProblemResponses([
    400,
    'Invalid body (every bad field named), too many endpoints, or agencyId from a non-ops caller',
  ])
  async create(
    @Caller() caller: Principal,
    @Body() body: unknown,
    @Query('agencyId') agencyId?: string,
  ): Promise<WebhookCreated> {
    const agency = webhookAgency(caller, agencyId);
    const checked = validateWebhookCreate(body, this.config.requireHttps);
    if (!checked.ok) throw new ApiError('INVALID_WEBHOOK', 'Invalid webhook endpoint', { fields: checked.fields });
    return this.webhooks.create(agency, checked.value, this.now());
  }

  @Get()
  @ApiOperation({ summary: "The agency's endpoints (never their secrets)" })
  @ApiQuery(AGENCY_QUERY)
  @ProblemResponses([400, 'agencyId from a non-ops caller'])
  async list(@Caller() caller: Principal, @Query('agencyId') agencyId?: string): Promise<{ webhooks: WebhookView[] }> {
    return { webhooks: await this.webhooks.list(webhookAgency(caller, agencyId)) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One endpoint (never its secret)' })
  @ApiQuery(AGENCY_QUERY)
  @ProblemResponses([404, "Unknown id, or another agency's (answered alike)"])
  get(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Query('agencyId') agencyId?: string,
  ): Promise<WebhookView> {
    return this.webhooks.get(webhookAgency(caller, agencyId), id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint; its pending deliveries stop' })
  @ApiQuery(AGENCY_QUERY)
  @ProblemResponses([404, "Unknown id, or another agency's (answered alike)"])
  async remove(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Query('agencyId') agencyId?: string,
  ): Promise<void> {
    await this.webhooks.remove(webhookAgency(caller, agencyId), id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'Recent deliveries of an endpoint (newest first) with each attempt' })
  @ApiQuery(AGENCY_QUERY)
  @ProblemResponses([404, "Unknown id, or another agency's (answered alike)"])
  async deliveries(
    @Caller() caller: Principal,
    @Param('id') id: string,
    @Query('agencyId') agencyId?: string,
  ): Promise<{ deliveries: WebhookDelivery[] }> {
    return { deliveries: await this.webhooks.deliveries(webhookAgency(caller, agencyId), id) };
  }
}
