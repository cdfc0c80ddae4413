// My Account › Order Webhooks (beyond the spec): the callback URL, the signing secret
// (shown once, when made or rolled), and the latest delivery attempts with their status or class of
// failure (never the receiver's words) and a Resend button.
import { useState } from "react";
import type {
  WebhookDeliveryDto,
  WebhookSavedDto,
  WebhookSettingsDto,
} from "../../shared/webhook-types.ts";
import { callApi } from "../lib/api.ts";
import { ConfirmDialog } from "../lib/ConfirmDialog.tsx";
import { RefreshIcon } from "../lib/icons.tsx";
import { failureText, formatDate } from "../lib/order-format.ts";
import { useLoad } from "../lib/use-load.ts";
import { LoadFailed } from "../lib/LoadFailed.tsx";
import "../../styles/webhooks.css";

function SecretOnce({ secret }: { secret: string }) {
  return (
    <div class="rs-banner rs-banner-good" role="status">
      <span>Signing secret (copy it now, it is shown only once):</span>
      <code class="wh-secret">{secret}</code>
    </div>
  );
}

function answerOf(d: WebhookDeliveryDto): string {
  return d.error ?? String(d.statusCode);
}

function Deliveries({ version }: { version: number }) {
  const deliveries = useLoad(
    async () =>
      (await callApi<{ deliveries: WebhookDeliveryDto[] }>(
        "GET",
        "/api/reseller/webhook/deliveries",
      )).deliveries,
    String(version),
    "get webhook deliveries",
  );
  const [resending, setResending] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);

  const resend = async (id: string) => {
    setResending(id);
    try {
      await callApi("POST", `/api/reseller/webhook/deliveries/${encodeURIComponent(id)}/resend`);
      setResent(id);
    } catch (error) {
      console.error(error);
      alert(failureText("resend webhook", error));
    } finally {
      setResending(null);
    }
  };

  return (
    <div class="wh-deliveries">
      <div class="wh-heading">
        <h4>Deliveries</h4>
        <button type="button" class="btn-secondary" onClick={deliveries.reload}>
          <RefreshIcon /> Refresh
        </button>
      </div>
      {resent && (
        <div class="rs-banner rs-banner-info" role="status">
          Queued again; refresh to see its answer.
        </div>
      )}
      {deliveries.state === "loading"
        ? <p class="muted" role="status">Loading...</p>
        : deliveries.state === "failed"
        ? <LoadFailed message={deliveries.message} onRetry={deliveries.reload} />
        : deliveries.value.length === 0
        ? <p class="muted">No deliveries yet.</p>
        : (
          <div class="rs-scroll" tabIndex={0} role="region" aria-label="Webhook deliveries">
            <table class="rs-table wh-table">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Event</th>
                  <th>Order ID</th>
                  <th>Attempt</th>
                  <th>Answer</th>
                  <th>Time</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {deliveries.value.map((d) => (
                  <tr key={d.id}>
                    <td class="rs-nowrap">{formatDate(d.at)}</td>
                    <td class="rs-nowrap">{d.type}</td>
                    <td class="rs-nowrap">{d.orderId}</td>
                    <td>{d.attempt}</td>
                    <td>
                      <span class={d.ok ? "wh-ok" : "wh-bad"}>{answerOf(d)}</span>
                    </td>
                    <td class="rs-nowrap">{d.durationMs} ms</td>
                    <td>
                      <button
                        type="button"
                        class="btn-secondary"
                        disabled={resending === d.id}
                        aria-busy={resending === d.id}
                        onClick={() => resend(d.id)}
                      >
                        Resend
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </div>
  );
}

export function WebhookSettings() {
  const settings = useLoad(
    () => callApi<WebhookSettingsDto>("GET", "/api/reseller/webhook"),
    "webhook",
    "get webhook settings",
  );
  // What the reseller typed; until they type, the saved URL.
  const [typed, setTyped] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<WebhookSavedDto | null>(null);
  const [confirmRoll, setConfirmRoll] = useState(false);
  const [version, setVersion] = useState(0);
  const savedUrl = saved?.url ?? (settings.state === "ready" ? settings.value.url : null);
  const url = typed ?? savedUrl ?? "";

  const run = async (call: () => Promise<WebhookSavedDto>, action: string) => {
    setSaving(true);
    try {
      const result = await call();
      setSaved(result);
      setTyped(null);
      setVersion((n) => n + 1);
    } catch (error) {
      console.error(error);
      alert(failureText(action, error));
    } finally {
      setSaving(false);
      setConfirmRoll(false);
    }
  };

  return (
    <section class="wh-settings" aria-label="Order Webhooks">
      <h3>Order Webhooks</h3>
      <p class="muted">
        We POST a signed event to this URL when an order is successful, fails or is refunded.
      </p>
      {settings.state === "loading"
        ? <p class="muted" role="status">Loading...</p>
        : settings.state === "failed"
        ? <LoadFailed message={settings.message} onRetry={settings.reload} />
        : (
          <form
            class="rs-password"
            onSubmit={(e) => {
              e.preventDefault();
              run(() => callApi("PUT", "/api/reseller/webhook", { url }), "save webhook URL");
            }}
          >
            <label for="rs-webhook-url">Callback URL</label>
            <div class="rs-inline">
              <input
                id="rs-webhook-url"
                type="url"
                placeholder="https://your-shop.example/hooks/topup"
                value={url}
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
              <button type="submit" class="btn" disabled={saving} aria-busy={saving}>
                {saving && <span class="rs-spinner" aria-hidden="true" />}Set URL
              </button>
            </div>
          </form>
        )}
      {saved?.secret && <SecretOnce secret={saved.secret} />}
      {saved && !saved.secret && (
        <div class="rs-banner rs-banner-good" role="status">Successfully saved callback URL</div>
      )}
      {savedUrl && (
        <button
          type="button"
          class="btn-secondary wh-roll"
          disabled={saving}
          onClick={() => setConfirmRoll(true)}
        >
          Roll signing secret
        </button>
      )}
      {confirmRoll && (
        <ConfirmDialog
          message="Roll the signing secret? Deliveries are signed with the new one at once."
          tone="primary"
          confirmLabel="Roll secret"
          busy={saving}
          onConfirm={() =>
            run(() => callApi("POST", "/api/reseller/webhook/roll_secret"), "roll secret")}
          onCancel={() => setConfirmRoll(false)}
        />
      )}
      {savedUrl && <Deliveries version={version} />}
    </section>
  );
}
