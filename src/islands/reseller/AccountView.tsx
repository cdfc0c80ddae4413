// Spec §2 My Account: the exchange rate, the password change, Sign out and the balance history;
// beyond the spec, the reseller's API keys.
import { useEffect, useState } from "react";
import { callApi } from "../lib/api.ts";
import { signOut } from "../lib/sign-out.ts";
import { BalanceHistory } from "./BalanceHistory.tsx";
import { ApiKeys } from "./ApiKeys.tsx";
import { WebhookSettings } from "./WebhookSettings.tsx";

export interface AccountViewProps {
  /** The signed-in reseller's id, for the password change and the history. */
  resellerId: string;
}

/** Spec §9: the reseller's exchange rate is shown to 4 decimals on this page. */
const RATE_DECIMALS = 4;

const RATE_FAILURE = "Fail to get Yahoo Finance rate";

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ExchangeRate() {
  // 0 until the rate arrives (spec §2: 'Loading exchange rate...' while the rate is 0).
  const [rate, setRate] = useState(0);
  useEffect(() => {
    callApi<{ rate: number }>("GET", "/api/yahoo_finance/usd_sgd")
      .then((quote) => setRate(quote.rate))
      .catch((error) => {
        console.error(error);
        // The server's 502 already carries the spec's full text; a network error does not.
        const text = errorMessage(error);
        alert(
          text.startsWith(RATE_FAILURE)
            ? text
            : `${RATE_FAILURE}, please try again. Error: ${text}`,
        );
      });
  }, []);
  return (
    <div class="rs-banner rs-banner-info" role="status">
      {rate === 0
        ? "Loading exchange rate..."
        : `Please note that our current exchange rate is 1 USD to ${
          rate.toFixed(RATE_DECIMALS)
        } SGD.`}
    </div>
  );
}

function ChangePassword({ resellerId }: { resellerId: string }) {
  const [currentPassword, setCurrentPassword] = useState("");
  const [password, setPassword] = useState("");
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  // Spec §8's text, shown under the fields rather than in an alert.
  const [failure, setFailure] = useState("");

  const save = async () => {
    setSaving(true);
    setFailure("");
    try {
      await callApi("POST", "/api/reseller/change_password", {
        id: resellerId,
        password,
        currentPassword,
      });
      setCurrentPassword("");
      setPassword("");
      setSaved(true);
    } catch (error) {
      console.error(error);
      setFailure(`Fail to save settings, please try again. Error: ${errorMessage(error)}`);
    } finally {
      setSaving(false);
    }
  };

  const edit = (set: (value: string) => void) => (e: Event) => {
    set((e.currentTarget as HTMLInputElement).value);
    setSaved(false);
    setFailure("");
  };

  return (
    <form
      class="rs-password"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label for="rs-new-password">Change Account Password</label>
      {/* The server asks for the current password before changing it. */}
      <input
        id="rs-current-password"
        class="rs-current-password"
        type="password"
        placeholder="Current password"
        aria-label="Current password"
        autoComplete="current-password"
        value={currentPassword}
        onInput={edit(setCurrentPassword)}
      />
      <div class="rs-inline">
        <input
          id="rs-new-password"
          type="password"
          placeholder="New password"
          autoComplete="new-password"
          aria-invalid={failure !== ""}
          aria-describedby={failure ? "rs-password-failure" : undefined}
          value={password}
          onInput={edit(setPassword)}
        />
        <button type="submit" class="btn" disabled={saving} aria-busy={saving}>
          {saving && <span class="rs-spinner" aria-hidden="true" />}Save
        </button>
      </div>
      {failure && <p id="rs-password-failure" class="error" role="alert">{failure}</p>}
      {saved && (
        <div class="rs-banner rs-banner-good" role="status">Successfully changed password</div>
      )}
    </form>
  );
}

export function AccountView({ resellerId }: AccountViewProps) {
  return (
    <section class="rs-account">
      <h2>My Account</h2>
      <ExchangeRate />
      <div class="panel rs-account-panel">
        <ChangePassword resellerId={resellerId} />
        <button type="button" class="btn-danger rs-signout" onClick={() => signOut("reseller")}>
          Sign out
        </button>
      </div>
      <BalanceHistory resellerId={resellerId} />
      <ApiKeys listPath="/api/reseller/api_keys" canCreate />
      <WebhookSettings />
    </section>
  );
}
