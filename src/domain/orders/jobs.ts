import type { Db } from "../../db/client.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { JobKind } from "../jobs.ts";
import { isOpenAtSupplier, refreshOrder, sendAndWatch } from "./fulfil.ts";
import { SUPPLIER_CREATE_JOB, SUPPLIER_STATUS_JOB } from "./place.ts";
import { sendOrderToReview } from "./review.ts";
import { HITPAY_REFUND_JOB } from "../payments/consumer-refunds.ts";

/**
 * The order jobs' kinds: an order whose job runs out of attempts goes to Needs review (a HitPay
 * refund's too, consumer-refunds.ts), never to the failed-jobs list.
 */
export const ORDER_JOB_KINDS = [SUPPLIER_CREATE_JOB, SUPPLIER_STATUS_JOB, HITPAY_REFUND_JOB];

/**
 * The job kinds the order flow queues, with their handlers. A payload is `{ orderId }`; a job
 * still queued with the site's base URL in it (`siteUrl`) runs the same, that field unread: links
 * are built from the origin this process resolved at start (publicOrigin).
 */
export function orderJobHandlers(db: Db, suppliers: () => Suppliers): Record<string, JobKind> {
  return {
    [SUPPLIER_CREATE_JOB]: {
      run: (payload) => sendAndWatch(db, suppliers(), String(payload.orderId)),
      exhausted: (payload, lastError) =>
        sendOrderToReview(
          db,
          String(payload.orderId),
          `The supplier gave no usable answer to the order after every attempt (last: ${lastError}).`,
        ),
    },
    // Runs again with backoff until the supplier says delivered or failed.
    [SUPPLIER_STATUS_JOB]: {
      run: async (payload) =>
        !isOpenAtSupplier(await refreshOrder(db, suppliers(), String(payload.orderId))),
      exhausted: (payload, lastError) =>
        sendOrderToReview(
          db,
          String(payload.orderId),
          `The supplier still has not delivered the order after every status check (last: ${lastError}).`,
        ),
    },
  };
}
