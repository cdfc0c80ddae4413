// The dashboard's exclusions (spec §6): internal accounts whose orders are not counted, and names
// kept out of the Resellers tables. Settings an admin edits, one name per line; saving is audited.
import { useEffect, useState } from "react";
import type { DashboardExclusions } from "../../../shared/dashboard-types.ts";
import { callApi } from "../../lib/api.ts";

export interface ExclusionsFormProps {
  /** The lists as saved. */
  saved: DashboardExclusions;
  /** Called after a save, so the figures are read again. */
  onSaved: () => void;
}

const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/** Two one-name-a-line lists and Save. */
export default function ExclusionsForm({ saved, onSaved }: ExclusionsFormProps) {
  const [accounts, setAccounts] = useState(saved.excludedAccounts.join("\n"));
  const [hidden, setHidden] = useState(saved.hiddenResellerNames.join("\n"));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // Each load of the dashboard brings the lists as stored (another admin may have changed them).
  useEffect(() => {
    setAccounts(saved.excludedAccounts.join("\n"));
    setHidden(saved.hiddenResellerNames.join("\n"));
  }, [saved]);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await callApi("PUT", "/api/dashboard/exclusions", {
        excludedAccounts: lines(accounts),
        hiddenResellerNames: lines(hidden),
      });
      setMessage({ ok: true, text: "Exclusions saved." });
      onSaved();
    } catch (error) {
      setMessage({
        ok: false,
        text: `Failure saving exclusions, please try again. Error: ${(error as Error).message}`,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="db-exclusions" onSubmit={save} aria-labelledby="db-exclusions-title">
      <h3 id="db-exclusions-title">Excluded from the dashboard</h3>
      <div class="db-exclusion-fields">
        <div>
          <label for="db-excluded-accounts">
            Internal accounts (orders not counted), one per line
          </label>
          <textarea
            id="db-excluded-accounts"
            rows={3}
            value={accounts}
            onInput={(e) => setAccounts((e.target as HTMLTextAreaElement).value)}
          />
        </div>
        <div>
          <label for="db-hidden-names">Names hidden from the Resellers tables, one per line</label>
          <textarea
            id="db-hidden-names"
            rows={3}
            value={hidden}
            onInput={(e) => setHidden((e.target as HTMLTextAreaElement).value)}
          />
        </div>
      </div>
      <button class="btn" type="submit" disabled={busy}>Save</button>
      {message && (
        <p class={message.ok ? "db-saved" : "db-error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
