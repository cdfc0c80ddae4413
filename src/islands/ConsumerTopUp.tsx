// Spec §2 consumer top-up page and §4 consumer flow: enter IDs, Verify, the account's items, pick
// one, Proceed, review, Complete Payment, then the payment page. The server decides the package
// (verification.ts) and charges its own price; this island only shows them.
import { useSignal } from "@preact/signals";
import {
  type BillingDetails,
  type ConsumerItemDto,
  type ConsumerOrderDraft,
  type ConsumerPackageDto,
  ORDER_DRAFT_KEY,
} from "../shared/consumer-storefront.ts";
import { callApi } from "./lib/api.ts";
import { CheckIcon } from "./lib/icons.tsx";
import { ItemPicker } from "./consumer/ItemPicker.tsx";
import { ReviewOrder } from "./consumer/ReviewOrder.tsx";
import { paymentRefusalReason } from "./consumer/PaymentError.tsx";

export interface ConsumerTopUpProps {
  /** The game's name, sent as `game` and saved as the draft's gameName. */
  gameName: string;
  /** Every package's consumer items, priced on the server. */
  packages: ConsumerPackageDto[];
  /** The package whose items are shown before an account is verified. */
  previewPackage: string;
}

/** POST /api/consumers/verify_id/mlbb answer: spec §7 fields plus the server's decision. */
interface VerifyAnswer {
  name1: string;
  name2: string;
  choice: { kind: "ok"; package: string } | { kind: "out_of_stock"; package?: string } | {
    kind: "invalid";
  };
}

type Outcome =
  | { kind: "unverified" }
  | { kind: "verified"; userid: string; serverid: string; userName: string; pkg: string }
  | { kind: "invalid" }
  | { kind: "out_of_stock"; name: string };

function Banner({ title, detail }: { title: string; detail: string }) {
  return (
    <div class="ct-banner" role="alert">
      <strong>{title}</strong>
      <span>{detail}</span>
    </div>
  );
}

export default function ConsumerTopUp({ gameName, packages, previewPackage }: ConsumerTopUpProps) {
  const userid = useSignal("");
  const serverid = useSignal("");
  const verifying = useSignal(false);
  const outcome = useSignal<Outcome>({ kind: "unverified" });
  const selected = useSignal<ConsumerItemDto | null>(null);
  const reviewOpen = useSignal(false);
  const submitting = useSignal(false);
  const paymentError = useSignal<string | null>(null);

  const current = outcome.value;
  const shownPackage = current.kind === "verified" ? current.pkg : previewPackage;
  const items = packages.find((p) => p.name === shownPackage)?.items ?? [];

  // An edited ID is another account: its items and price must be verified again.
  const edit = (field: typeof userid, value: string) => {
    field.value = value;
    if (outcome.value.kind !== "unverified") outcome.value = { kind: "unverified" };
    selected.value = null;
    reviewOpen.value = false;
  };

  const verify = async (e: Event) => {
    e.preventDefault();
    const id = userid.value.trim();
    const server = serverid.value.trim();
    if (!id || !server || verifying.value) return;
    verifying.value = true;
    outcome.value = { kind: "unverified" };
    selected.value = null;
    reviewOpen.value = false;
    try {
      const answer = await callApi<VerifyAnswer>("POST", "/api/consumers/verify_id/mlbb", {
        userid: id,
        serverid: server,
      });
      const { choice } = answer;
      const pkg = choice.kind === "ok" ? packages.find((p) => p.name === choice.package) : null;
      if (choice.kind === "invalid") outcome.value = { kind: "invalid" };
      else if (choice.kind === "out_of_stock" || !pkg || pkg.isOutOfStock) {
        outcome.value = { kind: "out_of_stock", name: choice.package ?? gameName };
      } else {
        const userName = pkg.name === "mlbb_special"
          ? answer.name2 || answer.name1
          : answer.name1 || answer.name2;
        outcome.value = { kind: "verified", userid: id, serverid: server, userName, pkg: pkg.name };
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
    const account = outcome.value;
    const item = selected.value;
    if (account.kind !== "verified" || !item || submitting.value) return;
    submitting.value = true;
    paymentError.value = null;
    const provider = billing.paymentMethod === "manual" ? "manual" : "hitpay";
    const order = {
      game: gameName,
      userid: account.userid,
      serverid: account.serverid,
      denom: item.key,
      userName: account.userName,
      itemName: item.name,
      amount: item.price,
      cost: null,
      package: account.pkg,
    };
    try {
      const started = await callApi<{ orderID: string; paymentUrl: string }>(
        "POST",
        `/api/payment/${provider}/mlbb`,
        { consumer: billing, ...order },
      );
      const draft: ConsumerOrderDraft = {
        consumer: {
          name: `${billing.firstName.trim()} ${billing.lastName.trim()}`.trim(),
          email: billing.email.trim(),
          phone: billing.phone.trim(),
        },
        ...order,
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
      alert("Payment failed.");
    }
  };

  return (
    <>
      <form class="panel ct-verify" noValidate onSubmit={verify}>
        <div class="ct-fields">
          {([["userid", "User ID", userid], ["serverid", "Server ID", serverid]] as const).map((
            [name, label, field],
          ) => (
            <label key={name}>
              {label}
              <input
                name={name}
                inputMode="numeric"
                autoComplete="off"
                required
                value={field.value}
                onInput={(e) => edit(field, e.currentTarget.value)}
              />
            </label>
          ))}
          <button type="submit" class="btn" disabled={verifying.value} aria-busy={verifying.value}>
            {verifying.value && <span class="ct-spinner" aria-hidden="true" />}Verify
          </button>
        </div>
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
          submitting={submitting.value}
          paymentError={paymentError.value}
          onComplete={pay}
        />
      )}
    </>
  );
}
