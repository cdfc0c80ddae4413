import { type RawBuilder, sql } from "kysely";
import type { Db } from "../client.ts";
import type { NewOrder } from "../schema.ts";
import { conditionalDebit } from "./ledger.ts";

export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
}

/** What the placement statement writes besides the debit; the DB fills in balances and time. */
export interface OrderPlacement {
  resellerId: string;
  cents: number;
  /** The order without its balances and timestamps (the debit and now() give them). */
  order: Omit<NewOrder, "old_balance_cents" | "new_balance_cents" | "created_at" | "updated_at">;
  /** The 'order_placed' history row's actor and its order snapshot, whose `date` is filled in. */
  history: { actor: string; snapshot: Record<string, unknown> };
  job: { kind: string; payload: Record<string, unknown> };
  /**
   * With an Idempotency-Key: the claim and the answer kept for repeats, whose `order.date` and
   * `order.reseller.oldBalance`/`newBalance` are filled in.
   */
  claim?: IdempotencyClaim & { status: number; body: Record<string, unknown> };
}

export type PlacementOutcome =
  | { kind: "replay" }
  | { kind: "short" }
  | { kind: "placed"; oldCents: number; newCents: number; at: Date };

const json = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;
/** An instant as JavaScript's toISOString writes it (milliseconds, Z), from a timestamptz. */
const isoDate = (at: RawBuilder<unknown>) =>
  sql`to_jsonb(to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
/** Cents as centsToDollars gives them (a JSON number, no trailing zeros). */
const dollars = (cents: RawBuilder<unknown>) => sql`to_jsonb((${cents} / 100.0)::float8)`;

/** The primary key a second request with a taken Idempotency-Key runs into. */
const KEY_CONSTRAINT = "idempotency_keys_pk";

function takenKey(error: unknown): boolean {
  const e = error as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
  return e?.code === "23505" &&
    (e.constraint_name === KEY_CONSTRAINT || e.constraint === KEY_CONSTRAINT ||
      String((error as Error).message).includes(KEY_CONSTRAINT));
}

/**
 * Places an order in one statement, so in one round trip and one implicit transaction: the
 * conditional debit (nothing when the balance is short or the reseller deleted, or when the key
 * is already claimed), then, only if it debited, the order, its 'order_placed' history row, the
 * job that sends it to the supplier and the key's claim with the answer kept for repeats.
 *
 * Two requests with one key at once: both debit statements meet on the reseller's row; the second
 * waits for the first to commit, debits too, and then its claim hits the first's key, which fails
 * the whole statement (nothing of it is written) and comes back here as a replay. A repeat after
 * the first committed sees the key and debits nothing.
 */
export async function placeOrderStatement(
  db: Db,
  p: OrderPlacement,
): Promise<PlacementOutcome> {
  const claim = p.claim;
  const keyTaken = claim
    ? sql`EXISTS (SELECT 1 FROM idempotency_keys WHERE scope = ${claim.scope} AND key = ${claim.key})`
    : sql`false`;
  const columns = Object.keys(p.order);
  const orderJson = json(p.order);
  const claimCte = claim
    ? sql`, claim AS (
        INSERT INTO idempotency_keys (scope, key, fingerprint, response_status, response_body)
        SELECT ${claim.scope}::text, ${claim.key}::text, ${claim.fingerprint}::text,
          ${claim.status}::int,
          jsonb_set(jsonb_set(jsonb_set(${json(claim.body)}, '{order,date}', ${isoDate(sql`at`)}),
            '{order,reseller,oldBalance}', ${dollars(sql`old_cents`)}),
            '{order,reseller,newBalance}', ${dollars(sql`new_cents`)})
        FROM debit
      )`
    : sql``;
  try {
    const { rows } = await sql<
      { replay: boolean; old_cents: number | null; new_cents: number | null; at: Date | null }
    >`
      WITH debit AS (
        ${conditionalDebit(p.resellerId, p.cents)} AND NOT ${keyTaken}
        RETURNING balance_cents + ${p.cents}::bigint AS old_cents, balance_cents AS new_cents,
          now() AS at
      ), history AS (
        INSERT INTO balance_history (reseller_id, type, old_cents, new_cents, order_id,
          order_snapshot, actor)
        SELECT ${p.resellerId}::uuid, 'order_placed', old_cents, new_cents, ${p.order.id}::text,
          jsonb_set(${json(p.history.snapshot)}, '{date}', ${isoDate(sql`at`)}),
          ${p.history.actor}::text
        FROM debit
      ), job AS (
        INSERT INTO jobs (kind, payload, run_at)
        SELECT ${p.job.kind}::text, ${json(p.job.payload)}, at FROM debit
      )${claimCte}, placed AS (
        INSERT INTO orders (${sql.join(columns.map((c) => sql.ref(c)))},
          old_balance_cents, new_balance_cents, created_at, updated_at)
        SELECT ${sql.join(columns.map((c) => sql.ref(`r.${c}`)))}, old_cents, new_cents, at, at
        FROM debit, jsonb_populate_record(NULL::orders, ${orderJson}) AS r
      )
      SELECT ${keyTaken} AS replay, debit.old_cents, debit.new_cents, debit.at
      FROM (SELECT 1) AS one LEFT JOIN debit ON true`.execute(db);
    const row = rows[0];
    if (row.at !== null) {
      return {
        kind: "placed",
        oldCents: Number(row.old_cents),
        newCents: Number(row.new_cents),
        at: new Date(row.at),
      };
    }
    return row.replay ? { kind: "replay" } : { kind: "short" };
  } catch (error) {
    if (claim && takenKey(error)) return { kind: "replay" };
    throw error;
  }
}
