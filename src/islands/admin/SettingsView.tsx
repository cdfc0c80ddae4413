// Spec §2 Settings: the 'Exchange Rate' box, the mark-up field with Save, the red Sign out, and
// 'Restricted Users for mlbb Package' (accounts that always get mlbb_special, spec §4).
import { useEffect, useState } from "react";
import { callApi } from "../lib/api.ts";
import { signOut } from "../lib/sign-out.ts";
import { errorText } from "./games/draft.ts";
import { BankTransferForm } from "./settings/BankTransferForm.tsx";
import { useSettingsSave, useSettingsValue } from "./settings/use-settings-save.tsx";
import { RestrictedUsers } from "./settings/RestrictedUsers.tsx";
import { AlertThresholds, type BalanceThreshold } from "./settings/AlertThresholds.tsx";
import { StorePoliciesForm } from "./settings/StorePoliciesForm.tsx";
import type { AdminViewProps } from "./types.ts";
import "../../styles/admin-games.css";
import "../../styles/admin-people.css";
import "../../styles/admin-operations.css";

export type SettingsViewProps = AdminViewProps & {
  /** The suppliers' low-balance thresholds, as the page names them. */
  balanceThresholds: BalanceThreshold[];
};

/** GET /api/yahoo_finance/usd_sgd. */
interface UsdSgdQuote {
  rate: number;
  marketRate: number;
  fxRateMarkUp: number;
}

function ExchangeRateBox({ reload }: { reload: number }) {
  const [quote, setQuote] = useState<UsdSgdQuote | null>(null);
  const [failure, setFailure] = useState("");
  useEffect(() => {
    setFailure("");
    callApi<UsdSgdQuote>("GET", "/api/yahoo_finance/usd_sgd")
      .then(setQuote)
      .catch((error) => {
        console.error(error);
        // The server's text is the spec §8 one ('Fail to get Yahoo Finance rate, …').
        setFailure(errorText(error));
      });
  }, [reload]);
  return (
    <div class="ap-info" role="status" aria-label="Exchange Rate">
      <h3>Exchange Rate</h3>
      {failure
        ? <p class="ap-banner">{failure}</p>
        : quote === null
        ? <p class="muted">Loading...</p>
        : (
          <dl>
            <dt>Market rate</dt>
            <dd>1 USD = {quote.marketRate} SGD</dd>
            <dt>Mark up</dt>
            <dd>{quote.fxRateMarkUp} SGD cents per 1 USD</dd>
            <dt>Rate shown to resellers</dt>
            <dd>1 USD = {quote.rate.toFixed(4)} SGD</dd>
          </dl>
        )}
    </div>
  );
}

function MarkUpForm({ onSaved }: { onSaved: () => void }) {
  const saved = useSettingsValue<{ fxRateMarkUp: number }>("/api/settings", { fxRateMarkUp: 0 });
  // The field shows the saved mark-up once it arrived, then what the admin types.
  const [typed, setTyped] = useState<string | null>(null);
  const shown = typed ?? (saved.ready ? String(saved.value.fxRateMarkUp) : "");
  const { busy, message, save } = useSettingsSave();

  const submit = (e: Event) => {
    e.preventDefault();
    // Spec §5: sent as a number; the server checks range and decimals.
    save(async () => {
      await callApi("PUT", "/api/settings", { fxRateMarkUp: Number(shown) });
      onSaved();
    });
  };

  return (
    <form class="ap-markup" onSubmit={submit}>
      <label for="ap-markup">Exchange Rate Mark Up (SGD cents per 1 USD)</label>
      <div class="ap-inline">
        <input
          id="ap-markup"
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          required
          value={shown}
          disabled={!saved.ready}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
        <button type="submit" class="btn" disabled={busy || !saved.ready}>Save</button>
      </div>
      {message}
    </form>
  );
}

export default function SettingsView(props: SettingsViewProps) {
  const [reload, setReload] = useState(0);
  return (
    <section class="ap-settings">
      <div class="ag-heading">
        <h2>Settings</h2>
        <button class="btn-danger" type="button" onClick={() => signOut("admin")}>Sign out</button>
      </div>
      <div class="panel ap-section">
        <ExchangeRateBox reload={reload} />
        <MarkUpForm onSaved={() => setReload(reload + 1)} />
      </div>
      <BankTransferForm />
      <RestrictedUsers />
      <AlertThresholds balances={props.balanceThresholds} />
      <StorePoliciesForm />
    </section>
  );
}
