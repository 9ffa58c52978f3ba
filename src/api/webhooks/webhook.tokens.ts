/** Injection tokens of the webhook routes. */

/** The validated {@link WebhookConfig}. */
export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');
