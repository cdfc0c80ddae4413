// Bodies of the admin's reseller and consumer calls (spec §7 Admin). The client's createdBy,
// createdAt, rank and balanceHistory are not read: the session names the operator, new resellers
// are always rank 'Reseller', and only the ledger writes history.
import { z } from "zod";

/** Money and percents arrive as JSON numbers (spec §5) or decimal strings; money.ts reads them. */
const decimal = z.union([z.number(), z.string().max(64)]);

const Details = {
  name: z.string().max(100),
  phone: z.string().max(40).default(""),
  email: z.string().trim().max(254).pipe(z.email({ error: "Please enter a valid email address" })),
  remarks: z.string().max(2000).default(""),
  disableDiscounts: z.boolean().default(false),
  markup: z.record(z.string().regex(/^[\w.:-]{1,100}$/, "unknown markup key"), decimal)
    .refine((m) => Object.keys(m).length <= 500, "too many markup keys"),
};

/** POST /api/reseller. */
export const ResellerCreateInput = z.object({
  ...Details,
  password: z.string().max(1024),
  balance: decimal.default(0),
});

/** PUT /api/reseller/{id}: an empty password keeps the current one. */
export const ResellerEditInput = z.object({
  ...Details,
  password: z.string().max(1024).optional(),
  balance: decimal.optional(),
});

/** POST /api/balance_topup|balance_deduct/reseller/{id}. */
export const BalanceMoveInput = z.object({ amount: decimal });

/** GET /api/resellers. */
export const ResellerListQuery = z.object({ search: z.string().max(200).default("") });

/** GET /api/consumers. */
export const ConsumerListQuery = z.object({
  search: z.string().max(200).default(""),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

/** POST /api/reseller/api_keys: a reseller names a new API key. */
export const ApiKeyCreateInput = z.object({
  name: z.string().trim().min(1, "Please name the key").max(100),
});
