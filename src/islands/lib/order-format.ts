// Display rules of the order screens, the reseller's and the admin's (spec §3 Game item, §4 order
// statuses, §9 date format).
import type { ResellerOrderDto } from "../../shared/order-types.ts";
import { formatBusinessDate } from "../../shared/business-time.ts";
import { OPEN_RESELLER_STATES, WAITING_STATES } from "../../shared/order-lifecycle.ts";

/** Rows per page of the reseller's orders and balance history (spec §9). */
export const RESELLER_PAGE_SIZE = 20;

/** An ISO date as spec §9 shows it, in the business's time (the top bar says so). */
export function formatDate(iso: string): string {
  return formatBusinessDate(iso);
}

/** Only new or pending orders can be refreshed (spec §4). */
export function isOpenOrder(order: Pick<ResellerOrderDto, "status">): boolean {
  return OPEN_RESELLER_STATES.includes(order.status);
}

/** Statuses still waiting on someone (drawn with an hourglass): spec §4's new or pending ones. */
export function isWaitingStatus(status: string): boolean {
  return (WAITING_STATES as readonly string[]).includes(status);
}

/** Spec §8 'Failure <action>, please try again. Error: <error>'. */
export function failureText(action: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `Failure ${action}, please try again. Error: ${message}`;
}
