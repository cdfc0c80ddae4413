import { z } from "zod";
import { MLBB_PACKAGES } from "../domain/orders/verification.ts";
import { firstBillingProblem } from "../shared/consumer-storefront.ts";

const text = (max: number) => z.string().trim().max(max);
const id = (label: string) =>
  z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(
    z.string().min(1, `${label} is required`).max(64),
  );

// The page's billing checks (spec §5, src/shared/consumer-storefront.ts) again on the server, for a
// request that skipped the page. An API caller may leave out confirmEmail and paymentMethod (the
// path names the provider); when sent they are checked like the page does.
const Consumer = z.object({
  firstName: text(100),
  lastName: text(100).default(""),
  phone: text(40),
  email: text(254),
  confirmEmail: text(254).optional(),
  paymentMethod: text(20).optional(),
}).superRefine((c, ctx) => {
  const problem = firstBillingProblem({
    ...c,
    confirmEmail: c.confirmEmail ?? c.email,
    paymentMethod: c.paymentMethod ?? "paynow",
  });
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: [problem.field] });
});

/** A field the game may not ask for: blank when left out. */
const optionalText = z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(
  z.string().max(64),
).default("");

/**
 * POST /api/consumers/verify_id/{game}: the game's account fields. Which of them the game needs
 * (a Server ID, one of its named servers, a Character Name) is the game's rule, checked by the
 * domain.
 */
export const ConsumerVerifyBody = z.object({
  userid: id("User ID"),
  serverid: optionalText,
  characterName: optionalText,
});

/**
 * POST /api/payment/{provider}/mlbb (spec §7 Consumer) and /api/payment/{provider}/{slug} for every
 * other game. `amount` and `package` are what the page showed: compared with the
 * server's, never charged; `cost`, `itemName` and `userName` are ignored (the supplier's check
 * names the account again). `package` is Mobile Legends' only.
 */
export const ConsumerPaymentBody = ConsumerVerifyBody.extend({
  consumer: Consumer,
  game: z.string().max(200).optional(),
  denom: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(200)),
  userName: text(200).default(""),
  itemName: z.string().max(300).optional(),
  amount: z.number().finite().positive().max(1_000_000),
  cost: z.unknown().optional(),
  package: z.enum(MLBB_PACKAGES).optional(),
});

/** The spec's payment providers in the path; "hitpay" serves the paynow methods. */
export const PaymentProvider = z.enum(["hitpay", "manual"]);

/** POST /api/consumers/order: find an order by its number and the billing email. */
export const ConsumerOrderLookupBody = z.object({
  orderID: z.string().trim().min(1, "Order number is required").max(64),
  email: z.string().trim().min(1, "Please enter email address").max(254),
});

/** GET /api/consumers/order: the payment request id HitPay's redirect carries as `reference`. */
export const ConsumerOrderReferenceQuery = z.object({
  reference: z.string().trim().min(1, "reference is required").max(100),
});

/** POST /api/order/{id}/cancel-payment: the payment request id of HitPay's redirect. */
export const CancelPaymentBody = z.object({
  reference: z.string().trim().min(1).max(100),
});
