// What the Mobile Legends and the generic ordering views share (spec §2): heading, account
// fields, Verify with its loading state, the verified name, the three banners, the items and a
// fixed bottom bar with Back.
import type { ComponentChildren } from "preact";
import type { ResellerItemDto } from "../../shared/game-types.ts";
import { CheckIcon } from "../lib/icons.tsx";
import { Catalogue } from "./Catalogue.tsx";
import type { OrderFlow, Outcome } from "./use-order-flow.ts";

export interface OrderLayoutProps {
  /** The heading: the game's name. */
  title: string;
  /** The verify-then-order state from useOrderFlow. */
  flow: OrderFlow;
  /** True until the game's items have loaded. */
  loading: boolean;
  /** Called when Verify is pressed. */
  onVerify: () => void;
  /** Called with a confirmed item and the idempotency key of its confirmation. */
  onConfirm: (item: ResellerItemDto, idempotencyKey: string) => void;
  /** Returns to the games list. */
  onBack: () => void;
  /** The account fields. */
  children: ComponentChildren;
}

export interface TextFieldProps {
  /** The visible label. */
  label: string;
  /** The current text. */
  value: string;
  /** Called with the new text. */
  onChange: (value: string) => void;
}

/** A required text field of the ordering form. */
export function TextField({ label, value, onChange }: TextFieldProps) {
  return (
    <div>
      <label>
        {label}
        <input
          type="text"
          required
          autoComplete="off"
          value={value}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      </label>
    </div>
  );
}

function Banner({ tone, title, detail }: { tone: "bad" | "good"; title: string; detail: string }) {
  return (
    <div class={`rs-banner rs-banner-${tone}`} role={tone === "bad" ? "alert" : "status"}>
      <strong>{title}</strong>
      <span>{detail}</span>
    </div>
  );
}

function OutcomeView(
  { outcome, placing, onConfirm }: {
    outcome: Outcome;
    placing: boolean;
    onConfirm: OrderLayoutProps["onConfirm"];
  },
) {
  switch (outcome.kind) {
    case "verified":
      return (
        <>
          <p class="rs-verified">
            <span>{outcome.target.userName}</span> <CheckIcon label="Verified" />
          </p>
          <Catalogue
            items={outcome.items}
            player={{ ...outcome.target, server: outcome.server }}
            placing={placing}
            onConfirm={onConfirm}
          />
        </>
      );
    case "out_of_stock":
      return (
        <Banner
          tone="bad"
          title={`Items for ${outcome.name} are currently Out of Stock / Under Maintenance.`}
          detail="Please try again later."
        />
      );
    case "invalid":
      return <Banner tone="bad" title="Invalid user" detail="Please check and try again." />;
    case "placed":
      return (
        <Banner
          tone="good"
          title={`Placed order successfully for User: ${outcome.user}`}
          detail="You may track the order status in the Orders page."
        />
      );
    default:
      return null;
  }
}

export function OrderLayout(
  { title, flow, loading, onVerify, onConfirm, onBack, children }: OrderLayoutProps,
) {
  return (
    <section class="rs-order">
      <h2>{title}</h2>
      {loading ? <p class="muted" role="status">Loading...</p> : (
        <>
          <form
            class="panel rs-verify-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              onVerify();
            }}
          >
            <div class="rs-fields">{children}</div>
            <button type="submit" class="btn" disabled={flow.verifying} aria-busy={flow.verifying}>
              {flow.verifying && <span class="rs-spinner" aria-hidden="true" />}Verify
            </button>
          </form>
          <OutcomeView outcome={flow.outcome} placing={flow.placing} onConfirm={onConfirm} />
        </>
      )}
      <div class="rs-bottom-bar">
        <button type="button" class="btn-secondary" onClick={onBack}>Back</button>
      </div>
    </section>
  );
}
