// Spec §2 'Review Your Order': Billing Details, Your Order (subtotal, tax 0.00, total = subtotal),
// the coupon link, the payment method and Complete Payment. The billing checks run in the spec's
// order (src/shared/consumer-storefront.ts) before anything is sent.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import {
  type BillingDetails,
  type BillingField,
  type ConsumerItemDto,
  firstBillingProblem,
} from "../../shared/consumer-storefront.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { GemText } from "../lib/GemText.tsx";
import { PaymentError } from "./PaymentError.tsx";

/** Spec §2/§9: focus and scroll this long after review opens. */
const FOCUS_DELAY_MS = 500;

export interface ReviewOrderProps {
  /** The chosen item. */
  item: ConsumerItemDto;
  /** Whether the shop takes a bank transfer now: the manual method is offered only then. */
  bankTransfer: boolean;
  /** True while the payment call runs: Complete Payment shows loading and is disabled. */
  submitting: boolean;
  /**
   * After a failed payment call, the server's reason ("" when none): the spec's inline
   * 'Payment Error' shows with the reason under it. Null before any failure.
   */
  paymentError: string | null;
  /** Called with billing details that passed every check. */
  onComplete: (billing: BillingDetails) => void;
}

/** The failed billing check's message, under the field it is about (one at a time, spec §5). */
function FieldProblem({ message }: { message: string }) {
  return <span id="billing-problem" class="error ct-field-error" role="alert">{message}</span>;
}

/** Each billing field, with the autocomplete token of its purpose (WCAG 1.3.5). */
const FIELDS: {
  field: Exclude<BillingField, "paymentMethod">;
  label: string;
  type: string;
  autoComplete: string;
}[] = [
  { field: "firstName", label: "First Name", type: "text", autoComplete: "given-name" },
  { field: "lastName", label: "Last Name", type: "text", autoComplete: "family-name" },
  { field: "phone", label: "Phone Number (with country code)", type: "tel", autoComplete: "tel" },
  { field: "email", label: "Email Address", type: "email", autoComplete: "email" },
  { field: "confirmEmail", label: "Confirm Email Address", type: "email", autoComplete: "email" },
];

/**
 * The phone field starts with Singapore's country code: the shop charges in Singapore dollars and
 * most buyers are there; the spec asks for the code, and anyone elsewhere types over it.
 */
const PHONE_DEFAULT = "+65 ";

const METHODS = [
  { value: "paynow", label: "PayNow / GrabPay / ShopeePay Later / Atome" },
  { value: "manual", label: "Manual bank transfer (confirmed by our staff)" },
];

export function ReviewOrder(
  { item, bankTransfer, submitting, paymentError, onComplete }: ReviewOrderProps,
) {
  const billing = useSignal<BillingDetails>({
    firstName: "",
    lastName: "",
    phone: PHONE_DEFAULT,
    email: "",
    confirmEmail: "",
    paymentMethod: "",
  });
  const problem = useSignal<{ field: BillingField; message: string } | null>(null);
  const couponNote = useSignal(false);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      section.current?.querySelector<HTMLInputElement>("[name=firstName]")?.focus({
        preventScroll: true,
      });
      section.current?.scrollIntoView({ behavior: "smooth", block: "start" });
    }, FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const set = (field: BillingField, value: string) => {
    billing.value = { ...billing.value, [field]: value };
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (submitting) return;
    const found = firstBillingProblem(billing.value);
    problem.value = found;
    if (found) {
      section.current?.querySelector<HTMLInputElement>(`[name=${found.field}]`)?.focus();
      return;
    }
    onComplete(billing.value);
  };

  return (
    <section ref={section} class="ct-review" aria-labelledby="review-title">
      <h2 id="review-title">Review Your Order</h2>
      <form class="ct-review-grid" noValidate onSubmit={submit}>
        <fieldset class="panel">
          <legend>Billing Details</legend>
          {FIELDS.map(({ field, label, type, autoComplete }) => (
            <label key={field}>
              {label}
              <input
                name={field}
                type={type}
                autoComplete={autoComplete}
                aria-invalid={problem.value?.field === field}
                aria-describedby={problem.value?.field === field ? "billing-problem" : undefined}
                value={billing.value[field]}
                onInput={(e) => set(field, e.currentTarget.value)}
              />
              {problem.value?.field === field && <FieldProblem message={problem.value.message} />}
            </label>
          ))}
        </fieldset>
        <div class="panel ct-summary">
          <h3>Your Order</h3>
          <p class="ct-line">
            <span>
              <GemText text={item.name} />
            </span>
            <span>{dollarsToDollarString(item.price)}</span>
          </p>
          <p class="ct-line">
            <span>Subtotal</span>
            <span>{dollarsToDollarString(item.price)}</span>
          </p>
          <p class="ct-line">
            <span>Tax</span>
            <span>$0.00</span>
          </p>
          <p class="ct-line ct-total">
            <span>Total</span>
            <span>{dollarsToDollarString(item.price)}</span>
          </p>
          <p class="muted ct-currency">Prices are in Singapore dollars (SGD).</p>
          <button type="button" class="ct-link" onClick={() => couponNote.value = true}>
            Have a coupon code?
          </button>
          {couponNote.value && <p class="muted">Coupons are not available at the moment.</p>}
          <fieldset class="ct-methods">
            <legend>Payment Method</legend>
            {METHODS.filter((m) => m.value !== "manual" || bankTransfer).map((m) => (
              <label key={m.value} class="ct-method">
                <input
                  type="radio"
                  name="paymentMethod"
                  value={m.value}
                  checked={billing.value.paymentMethod === m.value}
                  onChange={() =>
                    set("paymentMethod", m.value)}
                />
                {m.label}
              </label>
            ))}
            {problem.value?.field === "paymentMethod" && (
              <FieldProblem message={problem.value.message} />
            )}
          </fieldset>
          {paymentError !== null && <PaymentError reason={paymentError} />}
          <button type="submit" class="btn ct-pay" disabled={submitting} aria-busy={submitting}>
            {submitting && <span class="ct-spinner" aria-hidden="true" />}Complete Payment
          </button>
        </div>
      </form>
    </section>
  );
}
