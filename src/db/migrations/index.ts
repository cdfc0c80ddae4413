import type { Migration } from "kysely/migration";
import * as m0001 from "./0001_create_core.ts";
import * as m0002 from "./0002_index_reseller_orders.ts";
import * as m0003 from "./0003_consumer_payments.ts";

/** Every migration, by name; listed statically so the server bundle carries them. */
export const MIGRATIONS: Record<string, Migration> = {
  "0001_create_core": m0001,
  "0002_index_reseller_orders": m0002,
  "0003_consumer_payments": m0003,
};
