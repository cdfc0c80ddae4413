// The order path finds its rows by index once the tables hold a shop's history: each
// statement of ten orders' lives (placement, the supplier-create pass, the status pass), planned by
// PostgreSQL against 20 000 earlier orders with their attempts, keys and jobs, reads orders,
// supplier attempts, idempotency keys and jobs without scanning a whole table. The lists of ids
// the statements carry used to be `IN (SELECT jsonb_array_elements_text(…))`, which the planner
// took for a hundred rows: it scanned these tables to find a handful.
import assert from "node:assert/strict";
import { CompiledQuery, sql } from "kysely";
import { testBackend } from "../helpers/backends.ts";
import { liveOrders, withOrderLives } from "../helpers/order-life.ts";

const backend = testBackend();
const HISTORY = 20_000;
const BIG_TABLES = ["orders", "supplier_attempts", "idempotency_keys", "jobs"];

Deno.test({
  name: `[order plans:${backend}] an order's statements read the big tables by index`,
  // PGlite plans alike, but its planner is not what a shop at this size runs on.
  ignore: backend !== "postgres",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withOrderLives("Planned", 1_000_000, async ({ handle, db, sim, denom, ordering }) => {
      const [first] = (await liveOrders(handle, sim, ordering, denom, 1)).orders;
      // The history: copies of that order (failed, so no balance or dashboard figure moves), each
      // with an attempt, a key and its two jobs done.
      const { rows: [{ columns }] } = await sql<{ columns: string }>`
        SELECT string_agg(quote_ident(column_name), ', ') AS columns
        FROM information_schema.columns
        WHERE table_name = 'orders' AND is_generated = 'NEVER'`.execute(db);
      const copied = sql.raw(columns);
      await sql`INSERT INTO orders (${copied})
        SELECT ${copied} FROM (
          SELECT (jsonb_populate_record(o, jsonb_build_object(
            'id', 'H' || n, 'status', 'error', 'supplier_order_id', 'S' || n))).*
          FROM orders o, generate_series(1, ${HISTORY}) n WHERE o.id = ${first.id}
        ) copies`.execute(db);
      await sql`INSERT INTO supplier_attempts (order_id, supplier, outcome, finished_at)
        SELECT 'H' || n, 'elephant', 'failed', now() FROM generate_series(1, ${HISTORY}) n`
        .execute(db);
      await sql`INSERT INTO idempotency_keys (scope, key, fingerprint, response_status)
        SELECT ${`reseller:${ordering.id}`}, gen_random_uuid()::text, 'f', 201
        FROM generate_series(1, ${HISTORY}) n`.execute(db);
      await sql`INSERT INTO jobs (kind, payload, run_at, done_at)
        SELECT kind, jsonb_build_object('orderId', 'H' || n), now(), now()
        FROM generate_series(1, ${HISTORY}) n,
          (VALUES ('order.supplier_create'), ('order.supplier_status')) AS k(kind)`.execute(db);
      await sql`ANALYZE`.execute(db);

      const lives = await liveOrders(handle, sim, ordering, denom, 10);
      const statements = [...lives.placement, ...lives.create, ...lives.check]
        .filter((s) => s.sql !== "BEGIN" && s.sql !== "COMMIT" && s.sql !== "ROLLBACK");
      assert.ok(statements.length >= 8, `${statements.length} statements`);
      const scans: string[] = [];
      for (const s of statements) {
        const plan = await db.executeQuery<{ "QUERY PLAN": string }>(
          CompiledQuery.raw(`EXPLAIN ${s.sql}`, [...s.parameters]),
        );
        const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
        for (const table of BIG_TABLES) {
          if (new RegExp(`Seq Scan on ${table}\\b`).test(text)) {
            scans.push(`${table} in: ${s.sql.replace(/\s+/g, " ").slice(0, 120)}\n${text}`);
          }
        }
      }
      assert.deepEqual(scans, []);
      await sql`DELETE FROM orders WHERE id LIKE 'H%'`.execute(db);
    });
  },
});
