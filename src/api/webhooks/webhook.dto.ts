/**
 * Validation of `POST /webhooks` bodies at the edge (zod). Unknown keys are refused by name;
 * messages never quote the submitted values.
 */
import { z } from 'zod/v4';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../webhooks/webhook.model';
import { formatPath, type ValidationResult } from '../bookings/booking.dto';

/** Longest accepted endpoint URL. */
export const MAX_WEBHOOK_URL = 2048;
/** Endpoint ids: `we_` and 24 hex digits. */
export const WEBHOOK_ID_RE = /^we_[0-9a-f]{24}$/;

export interface WebhookCreateRequest {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

function urlProblem(raw: string, requireHttps: boolean): string | undefined {
  if (!URL.canParse(raw)) return 'must be an absolute URL';
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (requireHttps && url.protocol !== 'https:') return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.hash !== '') return 'must not contain a fragment';
  return undefined;
}

export function webhookCreateSchema(requireHttps: boolean) {
  return z
    .object({
      url: z
        .string()
        .max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`)
        .superRefine((s, ctx) => {
          const problem = urlProblem(s, requireHttps);
          if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
        }),
      events: z
        .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
        .min(1, 'must name at least one event')
        .refine((list) => new Set(list).size === list.length, 'must not repeat an event'),
      description: z.string().trim().max(200, 'must be at most 200 characters').optional(),
    })
    .strict();
}

/** Validates a `POST /webhooks` body. */
export function validateWebhookCreate(body: unknown, requireHttps: boolean): ValidationResult<WebhookCreateRequest> {
  const r = webhookCreateSchema(requireHttps).safeParse(body);
  if (r.success) {
    const value: WebhookCreateRequest = { url: r.data.url, events: r.data.events };
    if (r.data.description !== undefined && r.data.description !== '') value.description = r.data.description;
    return { ok: true, value };
  }
  return {
    ok: false,
    fields: r.error.issues.map((issue) => ({
      path: issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : formatPath(issue.path) || '(body)',
      message: issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message,
    })),
  };
}
