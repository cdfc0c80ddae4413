// Admin → Settings, 'Alerts' (ours, not the spec's): when the admins are emailed about a
// supplier's low balance, a job backlog or a reseller's failing webhooks (GET/PUT
// /api/settings/alerts). Numbers are sent as numbers; the server checks ranges and decimals. The
// page names the suppliers' thresholds (one per registered supplier, with its currency).
import { useEffect, useState } from "react";
import { callApi } from "../../lib/api.ts";
import { errorText } from "../games/draft.ts";
import { useSettingsSave } from "./use-settings-save.tsx";

/** A supplier's low-balance threshold: its setting's key, and its label with its currency. */
export interface BalanceThreshold {
  key: string;
  label: string;
}

/** The thresholds that are not a supplier's. */
const APP_FIELDS = [
  { key: "jobBacklogLimit", label: "Jobs due above", step: "1" },
  { key: "webhookFailureLimit", label: "Webhook failures in a row", step: "1" },
];

export function AlertThresholds({ balances }: { balances: BalanceThreshold[] }) {
  const fields = [...balances.map((b) => ({ ...b, step: "0.01" })), ...APP_FIELDS];
  const [values, setValues] = useState<Record<string, string> | null>(null);
  const { busy, message, setMessage, save } = useSettingsSave();
  useEffect(() => {
    callApi<Record<string, number>>("GET", "/api/settings/alerts")
      .then((s) => setValues(Object.fromEntries(fields.map((f) => [f.key, String(s[f.key])]))))
      .catch((error) => {
        console.error(error);
        setMessage({ ok: false, text: errorText(error) });
      });
  }, []);

  const submit = (e: Event) => {
    e.preventDefault();
    if (!values) return;
    save(() =>
      callApi(
        "PUT",
        "/api/settings/alerts",
        Object.fromEntries(fields.map((f) => [f.key, Number(values[f.key])])),
      )
    );
  };

  return (
    <form class="panel ap-section ap-alerts" onSubmit={submit} aria-labelledby="ap-alerts-title">
      <h3 id="ap-alerts-title">Alerts</h3>
      <p class="muted">
        The admins are emailed, at most once an hour for each, when a supplier's balance falls below
        its amount, when more jobs are due than the limit, when a reseller's webhook deliveries fail
        this many times in a row, and when Needs review or the failed jobs gain an entry.
      </p>
      <div class="ap-alert-fields">
        {fields.map((field) => (
          <label key={field.key}>
            <span>{field.label}</span>
            <input
              type="number"
              inputMode={field.step === "1" ? "numeric" : "decimal"}
              min={field.step === "1" ? "1" : "0"}
              step={field.step}
              required
              disabled={!values}
              value={values?.[field.key] ?? ""}
              onInput={(e) =>
                values && setValues({ ...values, [field.key]: e.currentTarget.value })}
            />
          </label>
        ))}
      </div>
      <button type="submit" class="btn" disabled={busy || !values}>Save</button>
      {message}
    </form>
  );
}
