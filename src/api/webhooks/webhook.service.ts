/**
 * Webhook endpoints over Temporal: each agency's endpoints live in its registry workflow
 * (`webhooks:<agency id>`, see workflows/webhook-registry.workflow.ts). The API keeps nothing:
 * every instance reads and writes the same workflow, and registrations survive any restart.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Client, WorkflowNotFoundError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_REGISTRY_WORKFLOW,
  webhookRegistryId,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointView,
  type WebhookRegistryInput,
} from '../../webhooks/webhook.model';
import {
  deleteWebhookUpdate,
  listWebhooksQuery,
  registerWebhookUpdate,
  webhookDeliveriesQuery,
} from '../../../workflows/webhook-definitions';
import { ApiError } from '../common/api-error';
import { API_CONFIG, TEMPORAL_CLIENT } from '../common/api.tokens';
import type { WebhookRegistryWorkflow } from '../common/workflow-contract';
import type { ApiConfig } from '../config/api.config';
import type { WebhookConfig } from './webhook.config';
import type { WebhookCreateRequest } from './webhook.dto';
import { WEBHOOK_ID_RE } from './webhook.dto';
import { WEBHOOK_CONFIG } from './webhook.tokens';

export interface WebhookLinks {
  self: string;
  deliveries: string;
}

export type WebhookView = WebhookEndpointView & { links: WebhookLinks };

/** `201` of POST /webhooks: the only answer that ever carries the signing secret. */
export type WebhookCreated = WebhookView & { secret: string };

export function webhookLinks(id: string): WebhookLinks {
  return { self: `/webhooks/${id}`, deliveries: `/webhooks/${id}/deliveries` };
}

function withLinks(view: WebhookEndpointView): WebhookView {
  return { ...view, links: webhookLinks(view.id) };
}

/** No endpoint `id` in the caller's registry (`cause`: the refused call, if any). */
function notFound(id: string, cause?: unknown): ApiError {
  return new ApiError('WEBHOOK_NOT_FOUND', `No webhook endpoint with id ${id}`, cause !== undefined ? { cause } : {});
}

/** True when `err` says the workflow does not exist (or is closed, for an update). */
function isMissing(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  const name = (err as { name?: string } | null)?.name;
  return name === 'WorkflowNotFoundError';
}

@Injectable()
export class WebhookService {
  constructor(
    @Inject(TEMPORAL_CLIENT) private readonly client: Client,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(WEBHOOK_CONFIG) private readonly webhooks: WebhookConfig,
  ) {}

  /** Registers an endpoint for `agencyId`: a new id and secret, the configured retry schedule. */
  async create(agencyId: string, request: WebhookCreateRequest, now: Date): Promise<WebhookCreated> {
    const endpoint: WebhookEndpoint = {
      id: `we_${randomBytes(12).toString('hex')}`,
      url: request.url,
      events: request.events,
      ...(request.description !== undefined ? { description: request.description } : {}),
      secret: `whsec_${randomBytes(32).toString('base64')}`,
      createdAt: now.toISOString(),
      retry: { ...this.webhooks.retry },
    };
    const handle = await this.startRegistry(agencyId);
    let view: WebhookEndpointView;
    try {
      view = await handle.executeUpdate(registerWebhookUpdate, { args: [endpoint] });
    } catch (err) {
      const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
      if (cause instanceof ApplicationFailure && cause.type === 'INVALID_WEBHOOK') {
        throw new ApiError('INVALID_WEBHOOK', cause.message, { cause: err });
      }
      throw err;
    }
    return { ...withLinks(view), secret: endpoint.secret };
  }

  async list(agencyId: string): Promise<WebhookView[]> {
    const views = await this.query(agencyId, (h) => h.query(listWebhooksQuery));
    return (views ?? []).map(withLinks);
  }

  async get(agencyId: string, id: string): Promise<WebhookView> {
    const found = (await this.list(agencyId)).find((w) => w.id === id);
    if (found === undefined) throw notFound(id);
    return found;
  }

  async remove(agencyId: string, id: string): Promise<void> {
    if (!WEBHOOK_ID_RE.test(id)) throw notFound(id);
    let removed: boolean;
    try {
      removed = await this.registry(agencyId).executeUpdate(deleteWebhookUpdate, { args: [{ endpointId: id }] });
    } catch (err) {
      if (isMissing(err)) throw notFound(id, err);
      throw err;
    }
    if (!removed) throw notFound(id);
  }

  async deliveries(agencyId: string, id: string): Promise<WebhookDelivery[]> {
    if (!WEBHOOK_ID_RE.test(id)) throw notFound(id);
    const list = await this.query(agencyId, (h) => h.query(webhookDeliveriesQuery, id));
    if (list === undefined || list === null) throw notFound(id);
    return list;
  }

  /** The agency's registry workflow, typed by its function. */
  private registry(agencyId: string): WorkflowHandle<WebhookRegistryWorkflow> {
    return this.client.workflow.getHandle<WebhookRegistryWorkflow>(webhookRegistryId(agencyId));
  }

  /** The agency's registry, started when it does not run yet (concurrent starts get the same run). */
  private async startRegistry(agencyId: string): Promise<WorkflowHandle<WebhookRegistryWorkflow>> {
    const input: WebhookRegistryInput = { agencyId };
    try {
      await this.client.workflow.start<WebhookRegistryWorkflow>(WEBHOOK_REGISTRY_WORKFLOW, {
        workflowId: webhookRegistryId(agencyId),
        taskQueue: this.config.taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    return this.registry(agencyId);
  }

  /** Runs a query on the agency's registry; `undefined` when the agency has none. */
  private async query<T>(
    agencyId: string,
    run: (handle: WorkflowHandle<WebhookRegistryWorkflow>) => Promise<T>,
  ): Promise<T | undefined> {
    const handle = this.registry(agencyId);
    try {
      return await this.client.withDeadline(Date.now() + this.config.queryTimeoutMs, () => run(handle));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }
}
