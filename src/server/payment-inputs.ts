import { z } from "zod";
import { MLBB_PACKAGES } from "../domain/verification.ts";

const text = (max: number) => z.string().trim().max(max);
const id = (label: string) =>
  z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(
    z.string().min(1, `${label} is required`).max(64),
  );

// The spec's billing checks (§5), with its texts, for a request that skipped the page's checks.
const Consumer = z.object({
  firstName: text(100).min(1, "Please enter first name"),
  lastName: text(100).default(""),
  phone: text(40).min(1, "Please enter phone number with country code"),
  email: z.string().trim().min(1, "Please enter email address").max(254)
    .pipe(z.email("Please enter a valid email address")),
  confirmEmail: z.string().trim().max(254).optional(),
  paymentMethod: z.enum(["paynow", "manual"], "Please select payment method").optional(),
}).refine(
  (c) => c.confirmEmail === undefined || c.confirmEmail.toLowerCase() === c.email.toLowerCase(),
  { message: "Email addresses do not match", path: ["confirmEmail"] },
);

/**
 * POST /api/payment/{provider}/mlbb (spec §7 Consumer). `amount` and `package` are what the page
 * showed: compared with the server's, never charged; `cost` and `itemName` are ignored.
 */
export const ConsumerPaymentBody = z.object({
  consumer: Consumer,
  game: z.string().max(200).optional(),
  userid: id("User ID"),
  serverid: id("Server ID"),
  denom: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(200)),
  userName: text(200).default(""),
  itemName: z.string().max(300).optional(),
  amount: z.number().finite().positive().max(1_000_000),
  cost: z.unknown().optional(),
  package: z.enum(MLBB_PACKAGES),
});

/** The spec's payment providers in the path; "hitpay" serves the paynow methods. */
export const PaymentProvider = z.enum(["hitpay", "manual"]);
