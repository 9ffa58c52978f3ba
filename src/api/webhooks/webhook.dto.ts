/**
 * Validation of `POST /webhooks` bodies at the edge (zod): the schema is the one source of the
 * request's type and of its OpenAPI schema (`WebhookCreate`). Unknown keys are refused by name;
 * messages never quote the submitted values.
 */
import { z } from 'zod/v4';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/webhook.model';
import { formatPath, type ValidationResult } from '../common/validation';

/** Longest accepted endpoint URL. */
export const MAX_WEBHOOK_URL = 2048;
/** Endpoint ids: `we_` and 24 hex digits. */
export const WEBHOOK_ID_RE = /^we_[0-9a-f]{24}$/;

function urlProblem(raw: string, requireHttps: boolean): string | undefined {
  if (!URL.canParse(raw)) return 'must be an absolute URL';
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (requireHttps && url.protocol !== 'https:') return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.hash !== '') return 'must not contain a fragment';
  return undefined;
}

/** The body of `POST /webhooks`; `requireHttps` refuses `http:` URLs (WEBHOOK_REQUIRE_HTTPS). */
export function webhookCreateSchema(requireHttps: boolean) {
  return z
    .object({
      url: z
        .string()
        .max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`)
        .superRefine((s, ctx) => {
          const problem = urlProblem(s, requireHttps);
          if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
        })
        .meta({ example: 'https://agency.example.com/hooks/ndc-saga' }),
      events: z
        .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
        .min(1, 'must name at least one event')
        .refine((list) => new Set(list).size === list.length, 'must not repeat an event'),
      description: z.string().trim().max(200, 'must be at most 200 characters').optional(),
    })
    .strict();
}

/** A valid `POST /webhooks` body (a blank description is left out). */
export type WebhookCreateRequest = z.infer<ReturnType<typeof webhookCreateSchema>>;

/** Validates a `POST /webhooks` body. */
export function validateWebhookCreate(body: unknown, requireHttps: boolean): ValidationResult<WebhookCreateRequest> {
  const r = webhookCreateSchema(requireHttps).safeParse(body);
  if (r.success) {
    const { description, ...value } = r.data;
    return { ok: true, value: description !== undefined && description !== '' ? { ...value, description } : value };
  }
  return {
    ok: false,
    fields: r.error.issues.map((issue) => ({
      path: issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : formatPath(issue.path),
      message: issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message,
    })),
  };
}
