import type { Db } from "../../db/client.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { JobHandler } from "../jobs.ts";
import { sendOrderToSupplier } from "./fulfil.ts";
import { SUPPLIER_CREATE_JOB } from "./place.ts";

/** The job kinds the order flow queues, with their handlers. */
export function orderJobHandlers(db: Db, suppliers: () => Suppliers): Record<string, JobHandler> {
  return {
    [SUPPLIER_CREATE_JOB]: (payload) =>
      sendOrderToSupplier(db, suppliers(), String(payload.orderId)),
  };
}
