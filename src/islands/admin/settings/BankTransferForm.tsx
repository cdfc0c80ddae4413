// Settings 'Bank Transfer': the account a buyer who chooses manual bank transfer pays into. The
// result page and the buyer's email show it with the order number as the reference.
import type { BankTransferDetails } from "../../../shared/consumer-storefront.ts";
import { callApi } from "../../lib/api.ts";
import { useSettingsSave, useSettingsValue } from "./use-settings-save.tsx";

const FIELDS: { name: keyof BankTransferDetails; label: string }[] = [
  { name: "bankName", label: "Bank Name" },
  { name: "accountName", label: "Account Name" },
  { name: "accountNumber", label: "Account Number" },
];

export function BankTransferForm() {
  const { value: details, setValue: setDetails, ready } = useSettingsValue<BankTransferDetails>(
    "/api/settings/bank-transfer",
    { bankName: "", accountName: "", accountNumber: "" },
  );
  const { busy, save, message } = useSettingsSave();

  const submit = (e: Event) => {
    e.preventDefault();
    save(async () =>
      setDetails(await callApi<BankTransferDetails>("PUT", "/api/settings/bank-transfer", details))
    );
  };

  return (
    <form class="panel ap-section ap-bank" onSubmit={submit} aria-labelledby="ap-bank-title">
      <h3 id="ap-bank-title">Bank Transfer</h3>
      <p class="muted">
        Shown to buyers who choose manual bank transfer, with their order number as the reference.
      </p>
      <div class="ap-inline">
        {FIELDS.map(({ name, label }) => (
          <div key={name}>
            <label for={`ap-bank-${name}`}>{label}</label>
            <input
              id={`ap-bank-${name}`}
              value={details[name]}
              disabled={!ready}
              maxLength={200}
              onInput={(e) => setDetails({ ...details, [name]: e.currentTarget.value })}
            />
          </div>
        ))}
        <button type="submit" class="btn" disabled={busy || !ready}>Save</button>
      </div>
      {message}
    </form>
  );
}
