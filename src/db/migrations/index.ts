import type { Migration } from "kysely/migration";
import * as m0001 from "./0001_create_core.ts";
import * as m0002 from "./0002_index_reseller_orders.ts";
import * as m0003 from "./0003_consumer_payments.ts";
import * as m0004 from "./0004_index_admin_orders.ts";
import * as m0005 from "./0005_create_dashboard_daily.ts";
import * as m0006 from "./0006_index_emails.ts";
import * as m0007 from "./0007_create_api_keys.ts";
import * as m0008 from "./0008_create_webhooks.ts";
import * as m0009 from "./0009_index_audit_log.ts";
import * as m0010 from "./0010_create_supplier_attempts.ts";
import * as m0011 from "./0011_add_session_enrolment_secret.ts";
import * as m0012 from "./0012_add_login_attempt_time.ts";
import * as m0013 from "./0013_index_pending_resends.ts";
import * as m0014 from "./0014_add_game_hidden_consumer.ts";
import * as m0015 from "./0015_add_job_request_id.ts";
import * as m0016 from "./0016_create_operations_watch.ts";
import * as m0017 from "./0017_roll_up_dashboard.ts";
import * as m0018 from "./0018_index_unpaid_consumer_orders.ts";
import * as m0019 from "./0019_store_idempotent_answer_text.ts";
import * as m0020 from "./0020_index_live_supplier_attempts.ts";
import * as m0021 from "./0021_create_password_checks.ts";
import * as m0022 from "./0022_index_payment_references.ts";
import * as m0023 from "./0023_create_refunds.ts";
import * as m0024 from "./0024_create_item_routes.ts";
import * as m0025 from "./0025_create_order_review_spans.ts";

/** Every migration, by name; listed statically so the server bundle carries them. */
export const MIGRATIONS: Record<string, Migration> = {
  "0001_create_core": m0001,
  "0002_index_reseller_orders": m0002,
  "0003_consumer_payments": m0003,
  "0004_index_admin_orders": m0004,
  "0005_create_dashboard_daily": m0005,
  "0006_index_emails": m0006,
  "0007_create_api_keys": m0007,
  "0008_create_webhooks": m0008,
  "0009_index_audit_log": m0009,
  "0010_create_supplier_attempts": m0010,
  "0011_add_session_enrolment_secret": m0011,
  "0012_add_login_attempt_time": m0012,
  "0013_index_pending_resends": m0013,
  "0014_add_game_hidden_consumer": m0014,
  "0015_add_job_request_id": m0015,
  "0016_create_operations_watch": m0016,
  "0017_roll_up_dashboard": m0017,
  "0018_index_unpaid_consumer_orders": m0018,
  "0019_store_idempotent_answer_text": m0019,
  "0020_index_live_supplier_attempts": m0020,
  "0021_create_password_checks": m0021,
  "0022_index_payment_references": m0022,
  "0023_create_refunds": m0023,
  "0024_create_item_routes": m0024,
  "0025_create_order_review_spans": m0025,
};
