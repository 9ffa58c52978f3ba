/**
 * NDC client settings from the environment (worker, benchmark, tools). Fails fast naming the
 * variable.
 */
import { NDC_BINDINGS, type NdcBinding, type NdcExchangeSettings } from '../ndc/soap';
import type { NdcClientConfig } from './ndc-client';

/** Development credentials of the airline service (src/airline/airline.config.ts); refused in production. */
export const DEV_AIRLINE_USERNAME = 'agency';
export const DEV_AIRLINE_PASSWORD = 'agency-secret';

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${name}: must be an absolute http(s) URL, got "${value}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${name}: must be an http or https URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}: must be a positive integer, got "${raw}"`);
  return value;
}

/**
 * AIRLINE_BASE_URL (default `http://127.0.0.1:4010`), PAYMENT_BASE_URL (default AIRLINE_BASE_URL),
 * AIRLINE_USERNAME / AIRLINE_PASSWORD (default `agency` / `agency-secret`, refused when
 * NODE_ENV=production), AIRLINE_MEDIA_VENDOR (default `ndcsaga`), AIRLINE_TIMEOUT_MS (default 20000),
 * AIRLINE_BINDING (`plain`, default, `soap11` or `soap12`), AIRLINE_EXTENSION_NAMESPACE (default the
 * codec's `EXT_NS`, an absolute URI).
 */
export function loadNdcClientConfig(env: NodeJS.ProcessEnv = process.env): NdcClientConfig {
  const retailBaseUrl = url(env, 'AIRLINE_BASE_URL', 'http://127.0.0.1:4010');
  const paymentBaseUrl = url(env, 'PAYMENT_BASE_URL', retailBaseUrl);
  const username = env.AIRLINE_USERNAME?.trim() || DEV_AIRLINE_USERNAME;
  const password = env.AIRLINE_PASSWORD || DEV_AIRLINE_PASSWORD;
  if (env.NODE_ENV === 'production') {
    if (password === DEV_AIRLINE_PASSWORD)
      throw new Error('AIRLINE_PASSWORD: the development default is refused when NODE_ENV=production');
    if (username === DEV_AIRLINE_USERNAME)
      throw new Error('AIRLINE_USERNAME: the development default is refused when NODE_ENV=production');
  }
  const mediaVendor = env.AIRLINE_MEDIA_VENDOR?.trim() || 'ndcsaga';
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(mediaVendor))
    throw new Error(`AIRLINE_MEDIA_VENDOR: not a media type vendor token: "${mediaVendor}"`);
  const binding = env.AIRLINE_BINDING?.trim() || 'plain';
  if (!(NDC_BINDINGS as readonly string[]).includes(binding)) {
    throw new Error(`AIRLINE_BINDING: must be one of ${NDC_BINDINGS.join(', ')}, got "${binding}"`);
  }
  const extensionNamespace = env.AIRLINE_EXTENSION_NAMESPACE?.trim() || undefined;
  if (extensionNamespace !== undefined && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(extensionNamespace)) {
    throw new Error(`AIRLINE_EXTENSION_NAMESPACE: must be an absolute URI, got "${extensionNamespace}"`);
  }
  const exchange: NdcExchangeSettings = {};
  const hub = env.AIRLINE_EXCHANGE_NAMESPACE?.trim();
  if (hub) {
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(hub))
      throw new Error(`AIRLINE_EXCHANGE_NAMESPACE: must be an absolute URI, got "${hub}"`);
    exchange.namespace = hub;
  }
  const sellerId = env.AIRLINE_EXCHANGE_SELLER_ID?.trim();
  if (sellerId) exchange.sellerId = sellerId;
  const recipient = env.AIRLINE_EXCHANGE_RECIPIENT?.trim();
  if (recipient) exchange.recipient = recipient;
  return {
    retailBaseUrl,
    paymentBaseUrl,
    username,
    password,
    mediaVendor,
    binding: binding as NdcBinding,
    ...(Object.keys(exchange).length > 0 ? { exchange } : {}),
    ...(extensionNamespace !== undefined ? { extensionNamespace } : {}),
    timeoutMs: positiveInt(env, 'AIRLINE_TIMEOUT_MS', 20_000),
  };
}
