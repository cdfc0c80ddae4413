import type { Db } from "../../db/client.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { JobHandler } from "../jobs.ts";
import { isOpenAtSupplier, refreshOrder, sendAndWatch } from "./fulfil.ts";
import { SUPPLIER_CREATE_JOB, SUPPLIER_STATUS_JOB } from "./place.ts";

/** The base URL for a consumer's receipt links, carried by the job that a payment queued. */
function siteUrlIn(payload: Record<string, unknown>): string | undefined {
  return typeof payload.siteUrl === "string" ? payload.siteUrl : undefined;
}

/** The job kinds the order flow queues, with their handlers. */
export function orderJobHandlers(db: Db, suppliers: () => Suppliers): Record<string, JobHandler> {
  return {
    [SUPPLIER_CREATE_JOB]: (payload) =>
      sendAndWatch(db, suppliers(), String(payload.orderId), siteUrlIn(payload)),
    // Runs again with backoff until the supplier says delivered or failed.
    [SUPPLIER_STATUS_JOB]: async (payload) =>
      !isOpenAtSupplier(
        await refreshOrder(db, suppliers(), String(payload.orderId), siteUrlIn(payload)),
      ),
  };
}
