// Spec §2 consumer top-up page and §4 consumer flow, for every game consumers can buy:
// enter the game's fields, Verify, the account's items, pick one, Proceed, review, Complete
// Payment, then the payment page. The server checks the account with the game's supplier, decides
// Mobile Legends' package (verification.ts) and charges its own price; this island only shows them.
import { useSignal } from "@preact/signals";
import { useRef } from "react";
import {
  type AccountField as AccountFieldName,
  type BillingDetails,
  type ConsumerGameForm,
  type ConsumerItemDto,
  type ConsumerOrderDraft,
  type ConsumerPackageDto,
  type ConsumerVerifyAnswer,
  missingAccountFields,
  ORDER_DRAFT_KEY,
} from "../shared/consumer-storefront.ts";
import { callApi } from "./lib/api.ts";
import { CheckIcon } from "./lib/icons.tsx";
import { ItemPicker } from "./consumer/ItemPicker.tsx";
import { ReviewOrder } from "./consumer/ReviewOrder.tsx";
import { ServerSelect } from "./lib/ServerSelect.tsx";
import { paymentRefusalReason } from "./consumer/PaymentError.tsx";
import { useHydrated, useTypedBeforeHydration } from "./lib/hydrated.ts";
import { ACCOUNT_HELP_ID, AccountHelp } from "./consumer/AccountHelp.tsx";

export interface ConsumerTopUpProps {
  /** The game's fields and the key of its calls; its name is sent as `game` and saved as gameName. */
  form: ConsumerGameForm;
  /** Every package's consumer items, priced on the server (one package named "" but for Mobile Legends). */
  packages: ConsumerPackageDto[];
  /** The package whose items are shown before an account is verified. */
  previewPackage: string;
}

/** The account the order goes to, as verified, whatever the fields hold by then. */
interface Account {
  userid: string;
  serverid: string;
  characterName: string;
}

type Outcome =
  | { kind: "unverified" }
  | { kind: "verified"; account: Account; userName: string; pkg: string; bankTransfer: boolean }
  | { kind: "invalid" }
  | { kind: "out_of_stock"; name: string };

/** One typed account field of the form, with why Verify did nothing when it was left empty. */
function AccountField(
  { label, name, numeric, value, onInput, problem, help }: {
    label: string;
    name: string;
    numeric: boolean;
    value: string;
    onInput: (value: string) => void;
    problem?: string;
    /** The id of the text that says where to find this field's value. */
    help?: string;
  },
) {
  const problemId = `${name}-problem`;
  return (
    <label>
      {label}
      <input
        name={name}
        inputMode={numeric ? "numeric" : undefined}
        autoComplete="off"
        required
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={[problem && problemId, help].filter(Boolean).join(" ") || undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {problem && <span id={problemId} class="error ct-field-error" role="alert">{problem}</span>}
    </label>
  );
}

function Banner({ title, detail }: { title: string; detail: string }) {
  return (
    <div class="ct-banner" role="alert">
      <strong>{title}</strong>
      <span>{detail}</span>
    </div>
  );
}

export default function ConsumerTopUp({ form, packages, previewPackage }: ConsumerTopUpProps) {
  const gameName = form.name;
  const userid = useSignal("");
  const serverid = useSignal("");
  const characterName = useSignal("");
  const verifying = useSignal(false);
  const outcome = useSignal<Outcome>({ kind: "unverified" });
  const selected = useSignal<ConsumerItemDto | null>(null);
  const reviewOpen = useSignal(false);
  const submitting = useSignal(false);
  const paymentError = useSignal<string | null>(null);
  const hydrated = useHydrated();
  const verifyForm = useRef<HTMLFormElement>(null);
  useTypedBeforeHydration(verifyForm, { userid, serverid, characterName });
  const missing = useSignal<{ field: AccountFieldName; message: string }[]>([]);
  const problemOf = (field: AccountFieldName) =>
    missing.value.find((m) => m.field === field)?.message;

  const current = outcome.value;
  const shownPackage = current.kind === "verified" ? current.pkg : previewPackage;
  const items = packages.find((p) => p.name === shownPackage)?.items ?? [];

  // An edited ID is another account: its items and price must be verified again.
  const edit = (field: typeof userid, value: string) => {
    field.value = value;
    // A message stays only on a field that is still empty.
    if (missing.value.length) {
      missing.value = missingAccountFields(form, typedAccount())
        .filter((m) => problemOf(m.field));
    }
    if (outcome.value.kind !== "unverified") outcome.value = { kind: "unverified" };
    selected.value = null;
    reviewOpen.value = false;
  };

  const typedAccount = (): Account => ({
    userid: userid.value.trim(),
    serverid: form.requiresServerID ? serverid.value.trim() : "",
    characterName: form.requiresCharacterName ? characterName.value.trim() : "",
  });

  const verify = async (e: Event) => {
    e.preventDefault();
    const account = typedAccount();
    if (verifying.value) return;
    // Spec §5: nothing is sent while a required field is empty; the field says why.
    missing.value = missingAccountFields(form, account);
    if (missing.value.length) {
      (e.currentTarget as HTMLFormElement)
        .querySelector<HTMLElement>(`[name="${missing.value[0].field}"]`)?.focus();
      return;
    }
    verifying.value = true;
    outcome.value = { kind: "unverified" };
    selected.value = null;
    reviewOpen.value = false;
    try {
      const { choice, userName, bankTransfer } = await callApi<ConsumerVerifyAnswer>(
        "POST",
        `/api/consumers/verify_id/${form.apiKey}`,
        account,
      );
      const pkg = choice.kind === "ok"
        ? packages.find((p) => p.name === (choice.package ?? ""))
        : null;
      if (choice.kind === "invalid") outcome.value = { kind: "invalid" };
      else if (choice.kind === "out_of_stock" || !pkg || pkg.isOutOfStock) {
        outcome.value = { kind: "out_of_stock", name: choice.package ?? gameName };
      } else {
        outcome.value = { kind: "verified", account, userName, pkg: pkg.name, bankTransfer };
      }
    } catch (error) {
      console.error(error);
      const message = error instanceof Error ? error.message : String(error);
      alert(`Failed to verify ID, please try again. Error: ${message}`);
    } finally {
      verifying.value = false;
    }
  };

  const pay = async (billing: BillingDetails) => {
    const verified = outcome.value;
    const item = selected.value;
    if (verified.kind !== "verified" || !item || submitting.value) return;
    submitting.value = true;
    paymentError.value = null;
    const provider = billing.paymentMethod === "manual" ? "manual" : "hitpay";
    const order = {
      game: gameName,
      userid: verified.account.userid,
      serverid: verified.account.serverid,
      denom: item.key,
      userName: verified.userName,
      itemName: item.name,
      amount: item.price,
      cost: null,
      package: verified.pkg,
    };
    try {
      const started = await callApi<{ orderID: string; paymentUrl: string }>(
        "POST",
        `/api/payment/${provider}/${form.apiKey}`,
        {
          consumer: billing,
          ...order,
          characterName: verified.account.characterName,
          package: verified.pkg || undefined,
        },
      );
      const draft: ConsumerOrderDraft = {
        consumer: {
          name: `${billing.firstName.trim()} ${billing.lastName.trim()}`.trim(),
          email: billing.email.trim(),
          phone: billing.phone.trim(),
        },
        ...order,
        serverName: form.servers.find(([, value]) => value === order.serverid)?.[0] ?? "",
        orderID: started.orderID,
        gameName,
        status: "pending-customer-payment",
      };
      localStorage.setItem(ORDER_DRAFT_KEY, JSON.stringify(draft));
      location.assign(started.paymentUrl);
    } catch (error) {
      console.error(error);
      paymentError.value = paymentRefusalReason(error);
      submitting.value = false;
      // Spec §8's alert, where the inline error has no reason to give (a server or network
      // failure); a refusal the buyer can act on (a changed price, a limit) is said inline alone.
      if (!paymentError.value) alert("Payment failed.");
    }
  };

  return (
    <>
      <form ref={verifyForm} class="panel ct-verify" noValidate onSubmit={verify}>
        <div class="ct-fields">
          <AccountField
            label="User ID"
            name="userid"
            numeric
            value={userid.value}
            onInput={(value) => edit(userid, value)}
            problem={problemOf("userid")}
            help={ACCOUNT_HELP_ID}
          />
          {form.requiresServerID && (form.servers.length > 0
            ? (
              <ServerSelect
                servers={form.servers}
                value={serverid.value}
                onChange={(value) => edit(serverid, value)}
                problem={problemOf("serverid")}
              />
            )
            : (
              <AccountField
                label="Server ID"
                name="serverid"
                numeric
                value={serverid.value}
                onInput={(value) => edit(serverid, value)}
                problem={problemOf("serverid")}
              />
            ))}
          {form.requiresCharacterName && (
            <AccountField
              label="Character Name"
              name="characterName"
              numeric={false}
              value={characterName.value}
              onInput={(value) => edit(characterName, value)}
              problem={problemOf("characterName")}
            />
          )}
          <button
            type="submit"
            class="btn"
            disabled={!hydrated || verifying.value}
            aria-busy={!hydrated || verifying.value}
          >
            {(!hydrated || verifying.value) && <span class="ct-spinner" aria-hidden="true" />}Verify
          </button>
        </div>
        <AccountHelp help={form.help} gameName={gameName} />
        {current.kind === "verified" && (
          <p class="ct-verified">
            <span>{current.userName}</span> <CheckIcon label="Verified" />
          </p>
        )}
      </form>
      {current.kind === "invalid" && (
        <Banner title="Invalid user" detail="Please check and try again." />
      )}
      {current.kind === "out_of_stock" && (
        <Banner
          title={`Items for ${current.name} are currently Out of Stock / Under Maintenance.`}
          detail="Please try again later."
        />
      )}
      {(current.kind === "unverified" || current.kind === "verified") && (
        <section class="ct-items" aria-labelledby="items-title">
          <h2 id="items-title">Select an item</h2>
          {current.kind === "unverified" && (
            <p class="muted">Verify your account to choose an item.</p>
          )}
          <ItemPicker
            items={items}
            selected={selected.value?.key ?? ""}
            enabled={current.kind === "verified"}
            onPick={(item) =>
              selected.value = item}
          />
          <button
            type="button"
            class="btn ct-proceed"
            disabled={!selected.value || reviewOpen.value}
            onClick={() =>
              reviewOpen.value = true}
          >
            Proceed to Payment
          </button>
        </section>
      )}
      {reviewOpen.value && selected.value && (
        <ReviewOrder
          item={selected.value}
          bankTransfer={current.kind === "verified" && current.bankTransfer}
          submitting={submitting.value}
          paymentError={paymentError.value}
          onComplete={pay}
        />
      )}
    </>
  );
}
