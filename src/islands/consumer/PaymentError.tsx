// Spec §8 consumer payment: the inline 'Payment Error Failed to initiate payment, please try again.'
// kept word for word, with the server's own reason under it when it gave one (a changed price, an
// item no longer sold, an account that now gets another package).
import { ApiError } from "../lib/api.ts";

/** The server's reason for refusing a payment call, or "" when there is none worth showing. */
export function paymentRefusalReason(error: unknown): string {
  // A 5xx carries the spec's own text (or nothing useful); a 4xx says what the buyer can change.
  return error instanceof ApiError && error.status < 500 ? error.message : "";
}

export function PaymentError({ reason }: { reason: string }) {
  return (
    <div class="error ct-payment-error" role="alert">
      <p>
        <strong>Payment Error</strong> Failed to initiate payment, please try again.
      </p>
      {reason && <p class="ct-payment-reason">{reason}</p>}
    </div>
  );
}
