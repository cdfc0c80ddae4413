import { sql } from "kysely";
import type { Db } from "../client.ts";

/** When an order's steps happened, as the tables that record them say; null where none did. */
export interface OrderStepTimes {
  /** The first payment event that paid the order (`outcome` = the paying outcome). */
  paidByProvider: Date | null;
  /** The first audit row of an admin confirming its manual payment. */
  paidByAdmin: Date | null;
  /** Its first create request to the supplier. */
  firstSent: Date | null;
}

/**
 * The times of order `orderId`'s steps in one statement: `paidOutcome` is the payment event
 * outcome that paid it, `confirmAction` the audit action of a manual payment's confirmation
 * (asked only when `manual`, since the audit log is the larger read). Each read uses an index:
 * payment_events (order_id, received_at), supplier_attempts (order_id, id), and the audit log's
 * target trigram index (migration 0009), whose expression the filter repeats.
 */
export async function readOrderStepTimes(
  db: Db,
  orderId: string,
  options: { paidOutcome: string; confirmAction: string; manual: boolean },
): Promise<OrderStepTimes> {
  const target = `order\n${orderId}`;
  const { rows } = await sql<OrderStepTimes>`SELECT
    (SELECT min(received_at) FROM payment_events
      WHERE order_id = ${orderId} AND outcome = ${options.paidOutcome}) AS "paidByProvider",
    CASE WHEN ${options.manual}::boolean THEN (SELECT min(at) FROM audit_log
      WHERE (coalesce(target_type, '') || E'\n' || coalesce(target_id, '')) = ${target}
        AND action = ${options.confirmAction}) END AS "paidByAdmin",
    (SELECT min(started_at) FROM supplier_attempts WHERE order_id = ${orderId}) AS "firstSent"`
    .execute(db);
  const row = rows[0];
  const date = (value: Date | string | null) => value === null ? null : new Date(value);
  return {
    paidByProvider: date(row.paidByProvider),
    paidByAdmin: date(row.paidByAdmin),
    firstSent: date(row.firstSent),
  };
}

/**
 * The median length, in seconds, of the stays in Needs review that ended after `since`, and how
 * many there were (migration 0025's spans); null seconds when none ended.
 */
export async function medianReviewSeconds(
  db: Db,
  since: Date,
): Promise<{ seconds: number | null; count: number }> {
  const row = await db.selectFrom("order_review_spans")
    .select([
      sql<number>`count(*)::int`.as("count"),
      sql<number | null>`percentile_cont(0.5) WITHIN GROUP (
        ORDER BY extract(epoch FROM ended_at - since))::float8`.as("seconds"),
    ])
    .where("ended_at", ">", since)
    .executeTakeFirstOrThrow();
  return { seconds: row.seconds === null ? null : Number(row.seconds), count: Number(row.count) };
}
