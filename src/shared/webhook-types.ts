/** The order events a reseller's webhook receives. */
export type WebhookEventType = "order.successful" | "order.error" | "order.refunded";

/** GET /api/reseller/webhook: the callback URL (null before one is set); the secret never. */
export interface WebhookSettingsDto {
  url: string | null;
  updatedAt: string | null;
}

/** PUT /api/reseller/webhook and POST .../roll_secret: `secret` only when a new one was made. */
export interface WebhookSavedDto {
  url: string;
  secret?: string;
}

/** One delivery attempt as the account page lists it. */
export interface WebhookDeliveryDto {
  id: string;
  eventId: string;
  type: string;
  orderId: string;
  url: string;
  attempt: number;
  /** The receiver's HTTP status; null when there was no answer (see `error`). */
  statusCode: number | null;
  ok: boolean;
  /**
   * Null on a 2xx; otherwise the class of failure ("HTTP 500", "timeout", "cannot connect", "TLS
   * error", "refused: not a public address" …), never the receiver's own words.
   */
  error: string | null;
  durationMs: number;
  at: string;
}
