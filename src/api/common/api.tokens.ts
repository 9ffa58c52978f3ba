/** Injection tokens of the API module. */

/** The validated {@link ApiConfig}. */
export const API_CONFIG = Symbol('API_CONFIG');
/** The Temporal `Client` (built with the encrypting data converter). */
export const TEMPORAL_CLIENT = Symbol('TEMPORAL_CLIENT');
/** The {@link UiPayloadCodec} served at `/codec` for the Temporal Web UI. */
export const UI_PAYLOAD_CODEC = Symbol('UI_PAYLOAD_CODEC');
/** A `() => Date` clock (validation uses today's date). */
export const API_CLOCK = Symbol('API_CLOCK');
/** The {@link ApiKeyStore} (absent: API keys are refused). */
export const API_KEY_STORE = Symbol('API_KEY_STORE');
/** The {@link JwtVerifier} (absent: JWT bearer tokens are refused). */
export const JWT_VERIFIER = Symbol('JWT_VERIFIER');
/** The per-agency rate limiter of `POST /bookings` and `POST /batches` (absent: no limit). */
export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const API_METRICS = Symbol('API_METRICS');
