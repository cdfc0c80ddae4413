import { type Kysely, sql } from "kysely";
import { up as createDashboardDaily } from "./0005_create_dashboard_daily.ts";

// The dashboard's daily totals leave the order path. Frozen once landed.
// Migration 0005's statement triggers upserted one dashboard_daily row per reseller, package and
// day inside every order write, so every order of a reseller waited on that one row. Now:
// - dashboard_changes is an append-only log (no key, no index): a row trigger appends one signed
//   line (±1 order, ±amount, ±cost, by day, reseller and package) when a write moves an order into
//   or out of the successful totals, in the transaction of that write, whoever writes. Placing an
//   order (status 'new') and moving it to pending fire nothing (the WHEN clause is checked before
//   any function call); delivering it appends one line, touching no row another order touches.
// - the job runner folds the log into dashboard_daily (rollUpDashboard: one statement deletes the
//   lines it sees and adds their sums), so the log stays short;
// - the dashboard reads dashboard_daily plus the lines not yet folded, so its figures are exact at
//   every moment, never a fold behind.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER orders_dashboard_delete ON orders`.execute(db);
  await sql`DROP TRIGGER orders_dashboard_update ON orders`.execute(db);
  await sql`DROP TRIGGER orders_dashboard_insert ON orders`.execute(db);
  await sql`DROP FUNCTION dashboard_daily_delete()`.execute(db);
  await sql`DROP FUNCTION dashboard_daily_insert()`.execute(db);
  await sql`DROP FUNCTION dashboard_daily_track()`.execute(db);
  await sql`CREATE TABLE dashboard_changes (
    day timestamptz NOT NULL,
    reseller_id uuid,
    package text,
    orders integer NOT NULL,
    amount_cents bigint NOT NULL,
    cost numeric NOT NULL
  )`.execute(db);
  await sql`CREATE FUNCTION dashboard_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'successful' THEN
        INSERT INTO dashboard_changes (day, reseller_id, package, orders, amount_cents, cost)
        VALUES (date_bin('1 day', OLD.created_at, '1970-01-01 00:00:00+08'), OLD.reseller_id,
          OLD.package, -1, -OLD.amount_cents, -OLD.cost);
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'successful' THEN
        INSERT INTO dashboard_changes (day, reseller_id, package, orders, amount_cents, cost)
        VALUES (date_bin('1 day', NEW.created_at, '1970-01-01 00:00:00+08'), NEW.reseller_id,
          NEW.package, 1, NEW.amount_cents, NEW.cost);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER orders_dashboard_insert AFTER INSERT ON orders FOR EACH ROW
    WHEN (NEW.status = 'successful') EXECUTE FUNCTION dashboard_change()`.execute(db);
  await sql`CREATE TRIGGER orders_dashboard_update AFTER UPDATE ON orders FOR EACH ROW
    WHEN ((OLD.status = 'successful' OR NEW.status = 'successful') AND
      (OLD.status, OLD.created_at, OLD.reseller_id, OLD.package, OLD.amount_cents, OLD.cost)
        IS DISTINCT FROM
      (NEW.status, NEW.created_at, NEW.reseller_id, NEW.package, NEW.amount_cents, NEW.cost))
    EXECUTE FUNCTION dashboard_change()`.execute(db);
  await sql`CREATE TRIGGER orders_dashboard_delete AFTER DELETE ON orders FOR EACH ROW
    WHEN (OLD.status = 'successful') EXECUTE FUNCTION dashboard_change()`.execute(db);
}

// Back to migration 0005's triggers, with the daily totals summed again from the orders.
// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER orders_dashboard_delete ON orders`.execute(db);
  await sql`DROP TRIGGER orders_dashboard_update ON orders`.execute(db);
  await sql`DROP TRIGGER orders_dashboard_insert ON orders`.execute(db);
  await sql`DROP FUNCTION dashboard_change()`.execute(db);
  await sql`DROP TABLE dashboard_changes`.execute(db);
  await sql`DROP TABLE dashboard_daily`.execute(db);
  await sql`DROP INDEX orders_dashboard`.execute(db);
  await createDashboardDaily(db);
}
