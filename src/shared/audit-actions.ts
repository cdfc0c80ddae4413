// The audit log's actions as words (Admin → Audit): each row keeps its action's code
// ("reseller.top_up"), which the CLI's --action and the filter still take, and the console reads
// it as what happened ("Balance topped up"). The filter finds a row by either.

/** Every action the app writes, as a person reads it. */
const AUDIT_ACTION_LABELS: Record<string, string> = {
  "admin.create": "Admin created",
  "admin.update": "Admin changed",
  "admin.delete": "Admin deleted",
  "admin.reset_2fa": "Admin's two-factor reset",
  "api_key.create": "API key created",
  "api_key.revoke": "API key revoked",
  "api_key.use": "API key used",
  "consumer.delete": "Consumer deleted",
  "demo.remove": "Demo data removed",
  "email.delete": "Email deleted",
  "email.reply": "Email replied to",
  "game.create": "Game created",
  "game.update": "Game changed",
  "game.update_routes": "Item routes changed",
  "game.delete": "Game deleted",
  "game.launch": "Game launched",
  "game.sync_prices": "Prices synced",
  "job.retry": "Failed job retried",
  "order.review_delivered": "Order marked delivered",
  "order.review_refund": "Order refunded",
  "order.review_resend": "Order sent again",
  "order.confirm_manual_payment": "Manual payment confirmed",
  "order.cancel_manual_payment": "Manual payment cancelled",
  "reseller.create": "Reseller created",
  "reseller.update": "Reseller changed",
  "reseller.delete": "Reseller deleted",
  "reseller.change_password": "Reseller's password changed",
  "reseller.top_up": "Balance topped up",
  "reseller.deduct": "Balance deducted",
  "reseller.webhook.set_url": "Webhook URL set",
  "reseller.webhook.roll_secret": "Webhook secret rolled",
  "reseller.webhook.disable": "Webhook disabled",
  "restricted_mlbb_user.create": "Restricted user added",
  "restricted_mlbb_user.delete": "Restricted user removed",
  "settings.update": "Settings changed",
};

/** An action as words; one this table does not know yet reads as its code's words. */
export function auditActionLabel(action: string): string {
  const known = AUDIT_ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[._]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The codes whose words hold `text` (case-insensitive), for the Audit view's action filter. */
export function auditActionsWorded(text: string): string[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  return Object.entries(AUDIT_ACTION_LABELS)
    .filter(([, label]) => label.toLowerCase().includes(needle))
    .map(([action]) => action);
}
