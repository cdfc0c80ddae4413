// Display rules of the reseller home (spec §3 Game item, §4 order statuses, §9 date format).
import { format } from "date-fns";
import type { ResellerOrderDto } from "../../shared/order-types.ts";

/** Spec §9 'd MMM yyyy, h:mm a'; `aaa` gives the example's lower-case "pm" ("5 Jan 2025, 3:04 pm"). */
export const DATE_FORMAT = "d MMM yyyy, h:mm aaa";

/** Rows per page of the reseller's orders and balance history (spec §9). */
export const RESELLER_PAGE_SIZE = 20;

/** An ISO date as spec §9 shows it. */
export function formatDate(iso: string): string {
  return format(new Date(iso), DATE_FORMAT);
}

/** Spec §3: the word Diamonds is displayed as a gem symbol. */
export function withGem(text: string): string {
  return text.replace(/\bDiamonds\b/g, "💎");
}

/** Only new or pending orders can be refreshed (spec §4). */
export function isOpenOrder(order: Pick<ResellerOrderDto, "status">): boolean {
  return order.status === "new" || order.status === "pending";
}

const STATUS_LABELS: Record<string, string> = {
  successful: "Success ✅",
  pending: "Pending ⏳",
  new: "New ⏳",
  error: "Error ❌",
};

/** Spec §4 reseller order statuses; any other status shows raw and counts as failed. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? `${status} ❌`;
}

/** Spec §8 'Failure <action>, please try again. Error: <error>'. */
export function failureText(action: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `Failure ${action}, please try again. Error: ${message}`;
}
