// The reads behind the system invariants (src/domain/ledger/invariants.ts): each query returns the facts
// one invariant judges, for every row at once, so `ledger check` and the simulation ask the same.
import { sql } from "kysely";
import type { Db } from "../client.ts";
import { DAILY } from "./dashboard.ts";
import { NOT_AT_SUPPLIER } from "./supplier-attempts.ts";

/** A reseller order with the balance rows that name it. */
export interface DebitedOrderFacts {
  id: string;
  status: string;
  placed: number;
  refunded: number;
}

/** Every reseller order with its count of 'order_placed' and 'order_refunded' history rows. */
export async function listDebitedOrderFacts(db: Db): Promise<DebitedOrderFacts[]> {
  const { rows } = await sql<DebitedOrderFacts>`
    SELECT o.id, o.status,
      count(h.id) FILTER (WHERE h.type = 'order_placed')::int AS placed,
      count(h.id) FILTER (WHERE h.type = 'order_refunded')::int AS refunded
    FROM orders o LEFT JOIN balance_history h ON h.order_id = o.id
    WHERE o.buyer_type = 'reseller'
    GROUP BY o.id, o.status`.execute(db);
  return rows.map((r) => ({ ...r, placed: Number(r.placed), refunded: Number(r.refunded) }));
}

/** A consumer order past payment, with the evidence of its payment and of the work on it. */
export interface PaidConsumerOrderFacts {
  id: string;
  status: string;
  payment_provider: string | null;
  last_error: string | null;
  /** Verified payment events (webhook or status query) that paid it, in time or too late. */
  paid_events: number;
  /** Admin confirmations of a manual payment (audit rows). */
  confirmations: number;
  /** A job still due to run names the order (sending it, or watching its delivery). */
  working: boolean;
  /** Refunds of its payment that HitPay made (or that were found made on the payment). */
  refunds_succeeded: number;
  /** It waits in Needs review for an operator. */
  in_review: boolean;
}

/** Every consumer order in one of `statuses`, with its payment evidence. */
export async function listPaidConsumerOrderFacts(
  db: Db,
  statuses: string[],
): Promise<PaidConsumerOrderFacts[]> {
  if (!statuses.length) return [];
  const { rows } = await sql<PaidConsumerOrderFacts>`
    SELECT o.id, o.status, o.payment_provider, o.last_error,
      o.review_since IS NOT NULL AS in_review,
      (SELECT count(*) FROM payment_events e
        WHERE e.order_id = o.id AND e.outcome IN ('paid', 'paid too late'))::int AS paid_events,
      (SELECT count(*) FROM audit_log a
        WHERE a.target_type = 'order' AND a.target_id = o.id
          AND a.action = 'order.confirm_manual_payment')::int AS confirmations,
      EXISTS (SELECT 1 FROM jobs j
        WHERE j.done_at IS NULL AND j.attempts < j.max_attempts
          AND j.payload ->> 'orderId' = o.id) AS working,
      (SELECT count(*) FROM refunds r
        WHERE r.order_id = o.id AND r.status = 'succeeded')::int AS refunds_succeeded
    FROM orders o
    WHERE o.buyer_type = 'consumer' AND o.status IN (${sql.join(statuses)})`.execute(db);
  return rows.map((r) => ({
    ...r,
    paid_events: Number(r.paid_events),
    confirmations: Number(r.confirmations),
    refunds_succeeded: Number(r.refunds_succeeded),
  }));
}

/** An order whose refunds ask back more than it was paid: their sum against its amount. */
export interface RefundOverrun {
  id: string;
  amount_cents: number;
  refunded_cents: number;
}

/**
 * Orders whose refunds (every row HitPay did not refuse: made, or still being asked) add up to more
 * than the order's amount; none when the one-refund-per-order index and the full amount hold.
 */
export async function listRefundOverruns(db: Db): Promise<RefundOverrun[]> {
  const { rows } = await sql<RefundOverrun>`
    SELECT o.id, o.amount_cents, sum(r.amount_cents) AS refunded_cents
    FROM orders o JOIN refunds r ON r.order_id = o.id
    WHERE r.status <> 'refused'
    GROUP BY o.id, o.amount_cents
    HAVING sum(r.amount_cents) > o.amount_cents`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    amount_cents: Number(r.amount_cents),
    refunded_cents: Number(r.refunded_cents),
  }));
}

/** Delivered orders with a refund made or being asked for (HitPay's refusal is no refund). */
export async function listDeliveredAndRefunded(
  db: Db,
): Promise<{ id: string; refund_status: string }[]> {
  const { rows } = await sql<{ id: string; refund_status: string }>`
    SELECT o.id, r.status AS refund_status
    FROM orders o JOIN refunds r ON r.order_id = o.id
    WHERE o.status = 'successful' AND r.status <> 'refused'`.execute(db);
  return rows;
}

/** An attempt at one supplier that does not prove the order absent there, though it moved on. */
export interface SecondSupplierFact {
  order_id: string;
  supplier: string;
  outcome: string | null;
  /** The supplier the order reached after it, or its current one for a live attempt elsewhere. */
  later_supplier: string;
}

/**
 * The orders that reached a second supplier while the first may hold them: an attempt followed by
 * a later attempt at another supplier, itself not closed as refused or not there (NOT_AT_SUPPLIER);
 * and a live attempt at a supplier the order is no longer routed to.
 */
export async function listOrdersAtTwoSuppliers(db: Db): Promise<SecondSupplierFact[]> {
  const closed = sql.join(NOT_AT_SUPPLIER.map((o) => sql`${o}`));
  const { rows } = await sql<SecondSupplierFact>`
    SELECT DISTINCT y.order_id, y.supplier, y.outcome, x.supplier AS later_supplier
    FROM supplier_attempts y
    JOIN supplier_attempts x ON x.order_id = y.order_id AND x.id > y.id AND x.supplier <> y.supplier
    WHERE y.outcome IS NULL OR y.outcome NOT IN (${closed})
    UNION
    SELECT a.order_id, a.supplier, a.outcome, o.supplier AS later_supplier
    FROM supplier_attempts a JOIN orders o ON o.id = a.order_id
    WHERE a.supplier <> o.supplier AND (a.outcome IS NULL OR a.outcome NOT IN (${closed}))`
    .execute(db);
  return rows;
}

/**
 * The successful orders per Singapore day, reseller and package twice: as the dashboard reads them
 * (`daily`) and counted again from every order (`recount`); only the groups where they differ.
 */
export async function listDashboardDrift(db: Db): Promise<
  {
    day: Date;
    reseller_id: string | null;
    package: string | null;
    daily: string;
    recount: string;
  }[]
> {
  const { rows } = await sql<
    {
      day: Date;
      reseller_id: string | null;
      package: string | null;
      daily: string;
      recount: string;
    }
  >`
    WITH daily AS (
      SELECT day, reseller_id, package, sum(orders) AS n, sum(amount_cents) AS amount,
        sum(cost) AS cost
      FROM ${DAILY} GROUP BY day, reseller_id, package
      HAVING sum(orders) <> 0 OR sum(amount_cents) <> 0 OR sum(cost) <> 0
    ), recount AS (
      SELECT date_bin('1 day', created_at, '1970-01-01 00:00:00+08') AS day, reseller_id, package,
        count(*) AS n, sum(amount_cents) AS amount, sum(cost) AS cost
      FROM orders WHERE status = 'successful' GROUP BY 1, 2, 3
    )
    SELECT coalesce(d.day, r.day) AS day, coalesce(d.reseller_id, r.reseller_id) AS reseller_id,
      coalesce(d.package, r.package) AS package,
      concat_ws(' ', d.n, d.amount, d.cost) AS daily, concat_ws(' ', r.n, r.amount, r.cost) AS recount
    FROM daily d FULL JOIN recount r ON d.day = r.day
      AND d.reseller_id IS NOT DISTINCT FROM r.reseller_id AND d.package IS NOT DISTINCT FROM r.package
    WHERE (d.n, d.amount, d.cost) IS DISTINCT FROM (r.n, r.amount, r.cost)`.execute(db);
  return rows;
}

/** Every order id with its supplier, to match what the suppliers received. */
export async function listOrderSuppliers(
  db: Db,
): Promise<{ id: string; supplier: string }[]> {
  return await db.selectFrom("orders").select(["id", "supplier"]).execute();
}

/**
 * Runs `read` in one snapshot (REPEATABLE READ), so a check that reads several tables sees them at
 * one moment: on a live system a refund committing between two reads would otherwise show a
 * balance that disagrees with its history. Inside a transaction already, it reads in that one.
 */
export async function inSnapshot<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return await read(db);
  return await db.transaction().setIsolationLevel("repeatable read").execute(read);
}

/** How one paid HitPay consumer order ended, for the simulation's end-of-seed figures. */
export interface ConsumerOutcomeFacts {
  id: string;
  status: string;
  in_review: boolean;
  /** Why it waits in Needs review. */
  review_reason: string | null;
  /** An admin or the CLI acted on it (its audit rows); the system's own steps do not count. */
  operator_touched: boolean;
  /** When its supplier's definitive refusal (or the late payment) made it a refund case. */
  ended_at: Date | null;
  /** When HitPay's refund was found made. */
  refunded_at: Date | null;
  /** Its refund's status, if one was asked. */
  refund_status: string | null;
  /** The suppliers it had an attempt at (sent, refused or passed over): 2 once it was rerouted. */
  suppliers: number;
}

/**
 * The paid HitPay consumer orders placed since `since`, with how each ended, and the count of jobs
 * naming a consumer order placed since then that are still to run within `dueWithinSeconds` (the
 * simulation waits for none before it counts).
 */
export async function readConsumerOutcomes(
  db: Db,
  since: Date,
  paidStatuses: string[],
  dueWithinSeconds: number,
): Promise<{ orders: ConsumerOutcomeFacts[]; jobsDue: number }> {
  const closed = sql.join(NOT_AT_SUPPLIER.map((o) => sql`${o}`));
  const { rows } = await sql<ConsumerOutcomeFacts>`
    SELECT o.id, o.status, o.review_since IS NOT NULL AS in_review, o.review_reason,
      EXISTS (SELECT 1 FROM audit_log a WHERE a.target_type = 'order' AND a.target_id = o.id
        AND a.actor_type IN ('admin', 'cli')) AS operator_touched,
      coalesce(
        (SELECT max(s.finished_at) FROM supplier_attempts s
          WHERE s.order_id = o.id AND s.outcome IN (${closed})),
        (SELECT min(e.received_at) FROM payment_events e
          WHERE e.order_id = o.id AND e.outcome = 'paid too late')) AS ended_at,
      (SELECT r.updated_at FROM refunds r WHERE r.order_id = o.id AND r.status = 'succeeded')
        AS refunded_at,
      (SELECT r.status FROM refunds r WHERE r.order_id = o.id) AS refund_status,
      (SELECT count(DISTINCT s.supplier) FROM supplier_attempts s WHERE s.order_id = o.id)::int
        AS suppliers
    FROM orders o
    WHERE o.buyer_type = 'consumer' AND o.payment_provider = 'hitpay' AND o.created_at >= ${since}
      AND o.status IN (${sql.join(paidStatuses)})`.execute(db);
  const due = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM jobs j JOIN orders o ON o.id = j.payload ->> 'orderId'
    WHERE j.done_at IS NULL AND j.failed_at IS NULL AND j.attempts < j.max_attempts
      AND o.buyer_type = 'consumer' AND o.created_at >= ${since}
      AND j.run_at <= now() + make_interval(secs => ${dueWithinSeconds})`.execute(db);
  return {
    orders: rows.map((r) => ({ ...r, suppliers: Number(r.suppliers) })),
    jobsDue: Number(due.rows[0].n),
  };
}
