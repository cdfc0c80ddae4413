import { type Kysely, sql } from "kysely";

// How long Needs review takes, measured. An order's review_since is cleared whenever its review
// ends (a status move, an operator's resend, an accepted create), which forgets when it began, so
// the buyer's "usually within …" had nothing to count. order_review_spans keeps one row per ended
// review (the order, since when, until when), appended by a row trigger in the transaction of the
// write that ends it, whoever writes: the lifecycle's moves, the batched moves written in raw SQL
// and the acceptances all clear the flag in their own statements, and none of them can forget to
// record it. The WHEN clause is checked before any function call, so a move of an order that was
// not in review costs nothing more. Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE order_review_spans (
    id bigserial PRIMARY KEY,
    order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    since timestamptz NOT NULL,
    ended_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX order_review_spans_ended ON order_review_spans (ended_at)`.execute(db);
  await sql`CREATE FUNCTION order_review_span() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO order_review_spans (order_id, since, ended_at)
      VALUES (OLD.id, OLD.review_since, now());
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER orders_review_span AFTER UPDATE OF review_since ON orders FOR EACH ROW
    WHEN (OLD.review_since IS NOT NULL AND NEW.review_since IS NULL)
    EXECUTE FUNCTION order_review_span()`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER orders_review_span ON orders`.execute(db);
  await sql`DROP FUNCTION order_review_span()`.execute(db);
  await sql`DROP TABLE order_review_spans`.execute(db);
}
