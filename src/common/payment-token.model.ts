/**
 * Wire body of the airline's payment interface, `POST /payment/tokens` (spec: card tokens).
 * The orchestrator's client sends it and the airline's token service validates it, so both sides
 * share this one type. Sensitive: the card number and CVV are never logged or stored in clear.
 */
import type { PaymentCard } from './payment-card';

/** Card token request body (`POST /payment/tokens`). */
export interface PaymentTokenRequest {
  /** `YYYY-MM-DDThh:mm:ss`, UTC without zone: when the token stops being usable. */
  expiryDateTimeUTC: string;
  card: PaymentCard;
}
