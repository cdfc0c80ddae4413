// One operator decision on an order in Needs review, behind its confirmation: what it does, the
// supplier's order id for Mark Delivered, a busy state while it posts, and the server's answer
// when it refuses (the dialog stays open, so a mistyped id can be corrected).
import { useState } from "react";
import type { ReviewAction, ReviewOrderDto } from "../../../shared/order-types.ts";
import { callApi } from "../../lib/api.ts";
import { ConfirmDialog } from "../../lib/ConfirmDialog.tsx";
import { dollarsToDollarString } from "../../lib/format.ts";
import { failureText } from "../../lib/order-format.ts";

export interface ReviewDecisionDialogProps {
  /** The order decided on. */
  order: ReviewOrderDto;
  /** The decision. */
  action: ReviewAction;
  /** Called once the server answered, whatever it said: the queue may have changed. */
  onPosted: () => void;
  /** Closes the dialog. */
  onClose: () => void;
}

/** Each decision's button text and its spec §8 failure wording ('Failure <action>, …'). */
export const DECISIONS: Record<ReviewAction, { label: string; failure: string }> = {
  delivered: { label: "Mark Delivered", failure: "mark delivered" },
  refund: { label: "Refund", failure: "refund order" },
  resend: { label: "Send Again", failure: "send order again" },
};

function question(order: ReviewOrderDto, action: ReviewAction): string {
  if (action === "delivered") return `Mark order ${order.id} delivered?`;
  if (action === "refund") return `Refund order ${order.id}?`;
  return `Send order ${order.id} to the supplier again?`;
}

/** What the decision does, as review-queue.ts's resolveReview does it. */
function consequence(order: ReviewOrderDto, action: ReviewAction): string {
  if (action === "delivered") {
    return "Only when the supplier confirms it delivered this order: the order becomes " +
      "successful with the supplier's order id, and no money moves.";
  }
  if (action === "refund") {
    if (order.reseller) {
      return `The order becomes failed and ${order.reseller.name}'s balance is credited ` +
        `${dollarsToDollarString(order.amount)}, once.`;
    }
    if (order.refund) {
      return `HitPay is asked again to refund the customer's ` +
        `${dollarsToDollarString(order.refund.amount)}. The order becomes refunded when HitPay ` +
        "confirms it; if HitPay refuses again, it comes back here with HitPay's answer.";
    }
    return `The order becomes failed and HitPay is asked to refund the customer's ` +
      `${dollarsToDollarString(order.amount)}, once. The order becomes refunded when HitPay ` +
      "confirms it (a bank transfer is returned by hand).";
  }
  return "Only when you have checked with the supplier that it does not hold this order: " +
    "otherwise it may be delivered twice.";
}

const ID_FIELD = "ao-supplier-order-id";
const PROBLEM = "ao-decision-problem";

export function ReviewDecisionDialog(
  { order, action, onPosted, onClose }: ReviewDecisionDialogProps,
) {
  const [supplierOrderId, setSupplierOrderId] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  const post = async () => {
    setBusy(true);
    setProblem("");
    let failed = "";
    try {
      // The server checks the id (required, its characters) and answers 400 with what is wrong.
      await callApi(
        "POST",
        `/api/orders/${encodeURIComponent(order.id)}/review`,
        action === "delivered" ? { action, supplierOrderId } : { action },
      );
    } catch (error) {
      console.error(error);
      failed = failureText(DECISIONS[action].failure, error);
    }
    onPosted();
    if (!failed) return onClose();
    setProblem(failed);
    setBusy(false);
  };

  return (
    <ConfirmDialog
      message={question(order, action)}
      confirmLabel={DECISIONS[action].label}
      tone={action === "delivered" ? "primary" : "danger"}
      busy={busy}
      onConfirm={post}
      onCancel={onClose}
    >
      <p class="muted">{consequence(order, action)}</p>
      {action === "delivered" && (
        <>
          <label for={ID_FIELD}>Supplier order ID</label>
          <input
            id={ID_FIELD}
            required
            autocomplete="off"
            value={supplierOrderId}
            disabled={busy}
            aria-invalid={problem !== ""}
            aria-describedby={problem ? PROBLEM : undefined}
            onInput={(e) => setSupplierOrderId(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !busy) post();
            }}
          />
        </>
      )}
      {busy && (
        <p class="muted" role="status">
          <span class="rs-spinner" aria-hidden="true" />Saving...
        </p>
      )}
      {problem && <p id={PROBLEM} class="error" role="alert">{problem}</p>}
    </ConfirmDialog>
  );
}
