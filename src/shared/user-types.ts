// JSON shapes of the admin Users screen (spec §2 Users, §3 Reseller) and the search both the
// screen and the server use. Types and pure helpers only.

/** Spec §2: the Resellers list searches name, email or phone; Admins name, email or role. */
export function matchesSearch(fields: readonly string[], search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === "" || fields.some((field) => field.toLowerCase().includes(needle));
}

/** A reseller as the admin console lists and edits it; amounts in dollars. */
export interface ResellerDto {
  _id: string;
  name: string;
  phone: string;
  email: string;
  balance: number;
  markup: Record<string, number>;
  remarks: string;
  disableDiscounts: boolean;
  rank: string;
  createdBy: string;
  createdAt: string;
}

/** What POST /api/balance_topup|balance_deduct/reseller/{id} answer (the same to a repeat). */
export interface BalanceMoveResult {
  resellerId: string;
  type: "top_up" | "deduct";
  amount: number;
  oldBalance: number;
  newBalance: number;
  date: string;
}

/** Spec §2 Create Reseller: the markup keys every reseller must have. */
export const REQUIRED_MARKUP_KEYS = ["mlbb", "mlbb_global", "mlbb_special"] as const;

/** A consumer in the admin Consumers list. */
export interface ConsumerDto {
  _id: string;
  name: string;
  email: string;
  phone: string;
  createdAt: string;
}

/** GET /api/consumers: one page of the matching consumers. */
export interface ConsumersPage {
  consumers: ConsumerDto[];
  total: number;
  page: number;
  pageSize: number;
}
