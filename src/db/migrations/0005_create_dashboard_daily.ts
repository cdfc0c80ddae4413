import { type Kysely, sql } from "kysely";

// The admin dashboard sums successful orders by window, reseller and package; summing
// every order on each view costs seconds at a million orders. So:
// - dashboard_daily keeps, per Singapore day (UTC+8, the business's day), reseller and package, the
//   count, amount and cost of the successful orders. Triggers on orders keep it exact in the same
//   transaction as any insert, update or delete, whoever writes (app, CLI, a manual fix): a
//   statement adds its new successful rows and subtracts its old ones, grouped, so a bulk insert is
//   one upsert per group. The existing orders are summed in once here.
// - orders_dashboard (successful orders by date, with the summed columns) serves the partial days
//   at a window's ends and the hourly chart as index range scans.
// Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_dashboard ON orders (created_at)
    INCLUDE (reseller_id, package, amount_cents, cost) WHERE status = 'successful'`.execute(db);
  await sql`CREATE TABLE dashboard_daily (
    day timestamptz NOT NULL,
    reseller_id uuid,
    package text,
    orders bigint NOT NULL,
    amount_cents bigint NOT NULL,
    cost numeric NOT NULL
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX dashboard_daily_key ON dashboard_daily
    (day, (coalesce(reseller_id::text, '')), (coalesce(package, '')))`.execute(db);
  await sql`CREATE FUNCTION dashboard_daily_track() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO dashboard_daily AS d (day, reseller_id, package, orders, amount_cents, cost)
      SELECT date_bin('1 day', at, '1970-01-01 00:00:00+08'), reseller_id, package,
        sum(n), sum(amount_cents), sum(cost)
      FROM (
        SELECT created_at AS at, reseller_id, package, 1 AS n, amount_cents, cost
        FROM new_rows WHERE status = 'successful'
        UNION ALL
        SELECT created_at, reseller_id, package, -1, -amount_cents, -cost
        FROM old_rows WHERE status = 'successful'
      ) AS changes
      GROUP BY 1, 2, 3
      ON CONFLICT (day, (coalesce(reseller_id::text, '')), (coalesce(package, '')))
      DO UPDATE SET orders = d.orders + EXCLUDED.orders,
        amount_cents = d.amount_cents + EXCLUDED.amount_cents, cost = d.cost + EXCLUDED.cost;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE FUNCTION dashboard_daily_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO dashboard_daily AS d (day, reseller_id, package, orders, amount_cents, cost)
      SELECT date_bin('1 day', created_at, '1970-01-01 00:00:00+08'), reseller_id, package,
        count(*), sum(amount_cents), sum(cost)
      FROM new_rows WHERE status = 'successful'
      GROUP BY 1, 2, 3
      ON CONFLICT (day, (coalesce(reseller_id::text, '')), (coalesce(package, '')))
      DO UPDATE SET orders = d.orders + EXCLUDED.orders,
        amount_cents = d.amount_cents + EXCLUDED.amount_cents, cost = d.cost + EXCLUDED.cost;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE FUNCTION dashboard_daily_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO dashboard_daily AS d (day, reseller_id, package, orders, amount_cents, cost)
      SELECT date_bin('1 day', created_at, '1970-01-01 00:00:00+08'), reseller_id, package,
        -count(*), -sum(amount_cents), -sum(cost)
      FROM old_rows WHERE status = 'successful'
      GROUP BY 1, 2, 3
      ON CONFLICT (day, (coalesce(reseller_id::text, '')), (coalesce(package, '')))
      DO UPDATE SET orders = d.orders + EXCLUDED.orders,
        amount_cents = d.amount_cents + EXCLUDED.amount_cents, cost = d.cost + EXCLUDED.cost;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER orders_dashboard_insert AFTER INSERT ON orders
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION dashboard_daily_insert()`.execute(db);
  await sql`CREATE TRIGGER orders_dashboard_update AFTER UPDATE ON orders
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION dashboard_daily_track()`.execute(db);
  await sql`CREATE TRIGGER orders_dashboard_delete AFTER DELETE ON orders
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
    EXECUTE FUNCTION dashboard_daily_delete()`.execute(db);
  await sql`INSERT INTO dashboard_daily (day, reseller_id, package, orders, amount_cents, cost)
    SELECT date_bin('1 day', created_at, '1970-01-01 00:00:00+08'), reseller_id, package,
      count(*), sum(amount_cents), sum(cost)
    FROM orders WHERE status = 'successful' GROUP BY 1, 2, 3`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER orders_dashboard_delete ON orders`.execute(db);
  await sql`DROP TRIGGER orders_dashboard_update ON orders`.execute(db);
  await sql`DROP TRIGGER orders_dashboard_insert ON orders`.execute(db);
  await sql`DROP FUNCTION dashboard_daily_delete()`.execute(db);
  await sql`DROP FUNCTION dashboard_daily_insert()`.execute(db);
  await sql`DROP FUNCTION dashboard_daily_track()`.execute(db);
  await sql`DROP TABLE dashboard_daily`.execute(db);
  await sql`DROP INDEX orders_dashboard`.execute(db);
}
