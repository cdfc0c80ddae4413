// The words of the order statuses as the reseller's and the admin's Orders screens show them (spec
// §4: 'New ⏳', 'Pending ⏳', 'Success ✅', 'Error ❌' and the consumer's), and as the exports write
// them; the screens draw the symbol beside the word as an icon.

const STATUS_LABELS: Record<string, string> = {
  successful: "Success",
  pending: "Pending",
  new: "New",
  error: "Error",
  refunded: "Refunded",
  "pending-customer-payment": "Pending Payment",
  "payment-received-pending-disbursement": "Payment Received. Pending Processing",
  cancelled: "Cancelled",
  "payment-failed": "Payment Failed",
  "payment-cancelled": "Payment Cancelled",
  "payment-expired": "Payment Expired",
};

/** Spec §4 order statuses; any other status shows raw and counts as failed. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}
