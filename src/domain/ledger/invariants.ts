// The system invariants, in one place for `ledger check`, the tests and the seeded
// simulation. Each holds at every moment, not only when the system is quiet:
// - ledger: every balance = starting balance + Σ history deltas, rows chain, nothing negative
//   (checkLedger);
// - debited orders: every reseller order was debited once and is successful, pending (new) or
//   in error and refunded exactly once;
// - supplier sends: no order of ours exists twice at the suppliers (read from the simulators'
//   counts by our reference, when they are reachable);
// - consumer delivery: a paid consumer order is delivered, visibly in error, or has a job at work;
// - consumer payment: no consumer order is paid without exactly one verified payment event or
//   admin confirmation;
// - consumer refund: a consumer order is refunded exactly when HitPay made its one refund;
// - consumer outcome: a paid HitPay order is delivered, refunded, in Needs review or has a job
//   (sending, watching or refunding it) still to run: none is left where nobody acts on it;
// - refund amount: an order's refunds never add up to more than it was paid;
// - delivered or refunded: no delivered order has a refund made or being asked for;
// - one supplier at a time: an order reaches a second supplier only after its attempt at the
//   first was closed as refused there (or not there);
// - dashboard: the daily totals the dashboard reads (folded rows plus the change lines not folded
//   yet) equal the successful orders counted again, per day, reseller and package.
import type { Db } from "../../db/client.ts";
import {
  inSnapshot,
  listDashboardDrift,
  listDebitedOrderFacts,
  listDeliveredAndRefunded,
  listOrdersAtTwoSuppliers,
  listOrderSuppliers,
  listPaidConsumerOrderFacts,
  listRefundOverruns,
  readConsumerOutcomes,
} from "../../db/repositories/invariants.ts";
import type { SupplierReferenceCount } from "../../integrations/simulator-counts.ts";
import { checkLedger } from "./ledger.ts";
import { centsToDollarString } from "../money.ts";
import { DELIVERED, FAILED, PAYMENT_RECEIVED, REFUNDED } from "../payments/consumer-states.ts";
import { MOVES, RESELLER_STATES } from "../orders/lifecycle.ts";

export type InvariantName =
  | "ledger"
  | "debited orders"
  | "supplier sends"
  | "consumer delivery"
  | "consumer payment"
  | "consumer refund"
  | "consumer outcome"
  | "refund amount"
  | "delivered or refunded"
  | "one supplier at a time"
  | "dashboard";

/** One broken invariant, about one reseller, order or reference. */
export interface InvariantViolation {
  invariant: InvariantName;
  subject: string;
  problem: string;
}

/** Every reseller order: debited once, then open, delivered, or failed and refunded once. */
export async function checkDebitedOrders(db: Db): Promise<InvariantViolation[]> {
  const violations: InvariantViolation[] = [];
  const report = (subject: string, problem: string) =>
    violations.push({ invariant: "debited orders", subject, problem });
  for (const order of await listDebitedOrderFacts(db)) {
    if (order.placed !== 1) report(order.id, `debited ${order.placed} times`);
    if (order.status === MOVES.refunded.reseller.to[0]) {
      if (order.refunded !== 1) report(order.id, `in error, refunded ${order.refunded} times`);
    } else if ((RESELLER_STATES as readonly string[]).includes(order.status)) {
      if (order.refunded !== 0) report(order.id, `${order.status} but refunded`);
    } else report(order.id, `unknown status ${order.status}`);
  }
  return violations;
}

/**
 * Paid consumer orders: each paid by exactly one verified payment (a stored HitPay event that
 * paid it, or an admin's confirmation of a manual payment), each delivered, in error, refunded, or
 * still being worked on with its last error shown when a step failed, and refunded exactly when
 * HitPay made its refund (one refund row per order is the schema's).
 */
export async function checkConsumerOrders(db: Db): Promise<InvariantViolation[]> {
  const violations: InvariantViolation[] = [];
  const facts = await listPaidConsumerOrderFacts(db, [
    PAYMENT_RECEIVED,
    DELIVERED,
    FAILED,
    REFUNDED,
  ]);
  for (const order of facts) {
    const proofs = order.paid_events + order.confirmations;
    if (proofs !== 1) {
      violations.push({
        invariant: "consumer payment",
        subject: order.id,
        problem: proofs === 0
          ? `${order.status} without a verified payment event`
          : `paid by ${proofs} payment events`,
      });
    }
    const refunded = order.status === REFUNDED;
    if (refunded ? order.refunds_succeeded !== 1 : order.refunds_succeeded !== 0) {
      violations.push({
        invariant: "consumer refund",
        subject: order.id,
        problem: `${order.status} with ${order.refunds_succeeded} refunds made`,
      });
    }
    // Paid through HitPay and not delivered: it ends refunded, so until then something must be
    // on its way (a job) or an operator asked (Needs review). A bank transfer in error waits for
    // an admin's refund outside the shop, and is not judged here.
    if (
      order.payment_provider === "hitpay" && (order.status === PAYMENT_RECEIVED ||
        order.status === FAILED) &&
      !order.working && !order.in_review
    ) {
      violations.push({
        invariant: "consumer outcome",
        subject: order.id,
        problem: `${order.status}: not delivered, not refunded, no job working on it and not ` +
          "in Needs review",
      });
    }
    if (order.status === PAYMENT_RECEIVED && !order.working && order.last_error === null) {
      violations.push({
        invariant: "consumer delivery",
        subject: order.id,
        problem: "paid, not delivered, no error shown and no job working on it",
      });
    }
  }
  return violations;
}

/** Refunds never give back more than the order was paid, and never for a delivered order. */
export async function checkRefundBounds(db: Db): Promise<InvariantViolation[]> {
  const overruns = (await listRefundOverruns(db)).map((o): InvariantViolation => ({
    invariant: "refund amount",
    subject: o.id,
    problem: `refunds of ${centsToDollarString(o.refunded_cents)} on a payment of ${
      centsToDollarString(o.amount_cents)
    }`,
  }));
  const both = (await listDeliveredAndRefunded(db)).map((o): InvariantViolation => ({
    invariant: "delivered or refunded",
    subject: o.id,
    problem: `delivered, with a refund ${o.refund_status}`,
  }));
  return [...overruns, ...both];
}

/**
 * An order is at one supplier at a time: it moves to its item's next route only once its attempt
 * at the supplier before was closed as definitively refused (or as not there), so no supplier it
 * left can still deliver it.
 */
export async function checkOneSupplierAtATime(db: Db): Promise<InvariantViolation[]> {
  return (await listOrdersAtTwoSuppliers(db)).map((a) => ({
    invariant: "one supplier at a time",
    subject: a.order_id,
    problem: `at ${a.later_supplier} while its attempt at ${a.supplier} is ${
      a.outcome ?? "still out"
    }`,
  }));
}

/**
 * What the suppliers hold: at most one supplier order per order of ours, at its own supplier,
 * under one of our order ids. Repeated create requests under one reference are allowed: both
 * suppliers answer a repeat with the first order (EliteDias) or refuse it (MooGold 420).
 */
export async function checkSupplierSends(
  db: Db,
  counts: SupplierReferenceCount[],
): Promise<InvariantViolation[]> {
  const violations: InvariantViolation[] = [];
  const report = (subject: string, problem: string) =>
    violations.push({ invariant: "supplier sends", subject, problem });
  const supplierOf = new Map((await listOrderSuppliers(db)).map((o) => [o.id, o.supplier]));
  const ordersByReference = new Map<string, SupplierReferenceCount[]>();
  for (const count of counts.filter((c) => c.orders > 0)) {
    ordersByReference.set(count.reference, [
      ...ordersByReference.get(count.reference) ?? [],
      count,
    ]);
  }
  for (const [reference, held] of ordersByReference) {
    const total = held.reduce((sum, c) => sum + c.orders, 0);
    const ours = supplierOf.get(reference);
    if (reference === "") {
      report("(no reference)", `${total} supplier orders without our reference`);
    } else if (ours === undefined) report(reference, "a supplier order names no order of ours");
    else if (total > 1) report(reference, `exists ${total} times at the suppliers`);
    else if (held[0].supplier !== ours) {
      report(reference, `sent to ${held[0].supplier}, not ${ours}`);
    }
  }
  return violations;
}

/** The dashboard's daily totals against a recount of the successful orders. */
export async function checkDashboardTotals(db: Db): Promise<InvariantViolation[]> {
  return (await listDashboardDrift(db)).map((g) => ({
    invariant: "dashboard",
    subject: `${new Date(g.day).toISOString()} ${g.reseller_id ?? "consumers"} ${
      g.package ?? "(no package)"
    }`,
    problem: `daily totals ${totalsText(g.daily)}; recount ${totalsText(g.recount)}`,
  }));
}

/** A day's "orders amount_cents cost" as an operator reads it, in dollars. */
function totalsText(totals: string): string {
  if (!totals) return "none";
  const [orders, amountCents, cost] = totals.split(" ");
  return `${orders} order(s), ${centsToDollarString(Number(amountCents))}, cost ${cost}`;
}

/**
 * Every invariant; the supplier one only when the simulators' counts are given (a live supplier
 * does not tell us what it received).
 */
export async function checkInvariants(
  db: Db,
  options: { supplierCounts?: SupplierReferenceCount[] | null } = {},
): Promise<InvariantViolation[]> {
  return await inSnapshot(db, (snapshot) => allViolations(snapshot, options.supplierCounts));
}

async function allViolations(
  db: Db,
  supplierCounts: SupplierReferenceCount[] | null | undefined,
): Promise<InvariantViolation[]> {
  const ledger = (await checkLedger(db)).map((v): InvariantViolation => ({
    invariant: "ledger",
    subject: `${v.resellerName} (${v.resellerId})`,
    problem: v.problem,
  }));
  return [
    ...ledger,
    ...await checkDebitedOrders(db),
    ...await checkConsumerOrders(db),
    ...await checkRefundBounds(db),
    ...await checkOneSupplierAtATime(db),
    ...await checkDashboardTotals(db),
    ...supplierCounts ? await checkSupplierSends(db, supplierCounts) : [],
  ];
}

/**
 * How the paid HitPay consumer orders placed since `since` ended (the simulation's figures), and
 * how many order jobs are still due within five seconds.
 */
export async function consumerOutcomes(db: Db, since: Date) {
  return await readConsumerOutcomes(db, since, [PAYMENT_RECEIVED, DELIVERED, FAILED, REFUNDED], 5);
}
