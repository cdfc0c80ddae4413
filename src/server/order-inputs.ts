import { z } from "zod";
import { ValidationError } from "../domain/errors.ts";

const id = (label: string) =>
  z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(
    z.string().min(1, `${label} is required`).max(64),
  );
const optionalText = z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(
  z.string().max(64),
).default("");

// The client's `reseller`, `amount` and `cost` are read only to compare or ignore: the session
// names the reseller and the server prices the order.
const ClientReseller = z.object({ name: z.string().max(200), id: z.string().max(64) }).partial()
  .optional();

const Common = {
  reseller: ClientReseller,
  userid: id("User ID"),
  serverid: optionalText,
  denom: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(200)),
  userName: z.string().max(200).default(""),
  itemName: z.string().max(300).default(""),
  amount: z.number().finite().positive().max(1_000_000).optional(),
  cost: z.unknown().optional(),
};

export const MlbbOrderInput = z.object({
  ...Common,
  game: z.string().max(200).optional(),
  serverid: id("Server ID"),
  package: z.enum(["mlbb", "mlbb_special", "mlbb_global"]).optional(),
});

export const ElitediasOrderInput = z.object({
  ...Common,
  game: z.string().max(200).optional(),
  supplierGameName: z.string().trim().min(1).max(100),
});

export const MoogoldOrderInput = z.object({
  ...Common,
  game: z.string().max(200).optional(),
  productID: z.union([z.string().regex(/^\d+$/), z.number().int().positive()]).transform(String),
});

export const MlbbVerifyInput = z.object({
  userid: id("User ID"),
  serverid: id("Server ID"),
  reseller: z.unknown().optional(),
});

export const ElitediasVerifyInput = z.object({
  game: z.string().trim().min(1).max(100),
  userid: id("User ID"),
  serverid: optionalText,
  reseller: z.unknown().optional(),
});

export const MoogoldVerifyInput = z.object({
  game: z.union([z.string().regex(/^\d+$/), z.number().int().positive()]).transform(Number),
  userid: id("User ID"),
  serverid: optionalText,
  // Not in the spec's payload: MooGold validates every field of the product, a character name
  // included (Ragnarok Origin); orders still never send it (spec §5).
  characterName: optionalText,
  reseller: z.unknown().optional(),
  gameName: z.string().max(200).optional(),
});

/** The Idempotency-Key header: printable, at most 200 characters. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get("idempotency-key")?.trim();
  if (!key) return undefined;
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError("Idempotency-Key must be 1 to 200 printable characters");
  }
  return key;
}

/**
 * Query of GET /api/orders and GET /api/orders/export (the spec names none): `buyerType` is the
 * tab (reseller or consumer, as spec §3 Order's buyerType), `search` the search box, `page` from 1.
 */
export const AdminOrdersQuery = z.object({
  buyerType: z.enum(["reseller", "consumer"]).default("reseller"),
  search: z.string().max(200).default(""),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

/** Body of POST /api/orders/{id}/confirm-payment: `cancel` true when the payment never came. */
export const ConfirmPaymentInput = z.object({ cancel: z.boolean().default(false) });

/** POST /api/orders/{id}/review: an admin's decision on an order in Needs review. */
export const ReviewDecisionInput = z.object({
  action: z.enum(["delivered", "refund", "resend"], {
    error: "action must be delivered, refund or resend",
  }),
  supplierOrderId: z.string().max(100).optional(),
});
