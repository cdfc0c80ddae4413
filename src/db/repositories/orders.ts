import { type SelectQueryBuilder, sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, NewOrder, OrderRow } from "../schema.ts";
import { anyOfList, coalescePerHandle, inOrderOf } from "../coalesce.ts";
import {
  isListedMove,
  OPEN_RESELLER_STATES,
  type OrderStatus,
} from "../../shared/order-lifecycle.ts";

type Handle = Db | Transaction<Database>;

export async function findOrderById(db: Handle, id: string): Promise<OrderRow | undefined> {
  return await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The order whose payment request at `provider` is `reference` (index orders_payment_reference). */
export async function findOrderByPaymentReference(
  db: Handle,
  provider: string,
  reference: string,
): Promise<OrderRow | undefined> {
  return await db.selectFrom("orders").selectAll()
    .where("payment_provider", "=", provider)
    .where("payment_reference", "=", reference)
    .executeTakeFirst();
}

/** The order, locked until the transaction ends: a decision about it waits for any other. */
export async function lockOrderById(
  trx: Transaction<Database>,
  id: string,
): Promise<OrderRow | undefined> {
  return await trx.selectFrom("orders").selectAll().where("id", "=", id).forUpdate()
    .executeTakeFirst();
}

/** A reseller's order, or undefined when it does not exist or is someone else's. */
export async function findResellerOrder(
  db: Db,
  resellerId: string,
  id: string,
): Promise<OrderRow | undefined> {
  return await db.selectFrom("orders").selectAll().where("id", "=", id)
    .where("reseller_id", "=", resellerId).executeTakeFirst();
}

/** A reseller's orders, newest first. */
export async function listResellerOrders(
  db: Db,
  resellerId: string,
  limit: number,
): Promise<OrderRow[]> {
  return await db.selectFrom("orders").selectAll().where("reseller_id", "=", resellerId)
    .orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** A page of a reseller's orders, newest first (reseller API). */
export async function listResellerOrdersPage(
  db: Db,
  resellerId: string,
  filter: {
    status?: OrderStatus;
    from?: Date;
    before?: Date;
    /** The id of the previous page's last order: the page continues below it. */
    afterId?: string;
    limit: number;
  },
): Promise<OrderRow[]> {
  let q = db.selectFrom("orders").selectAll().where("reseller_id", "=", resellerId);
  if (filter.status) q = q.where("status", "=", filter.status);
  if (filter.from) q = q.where("created_at", ">=", filter.from);
  if (filter.before) q = q.where("created_at", "<", filter.before);
  if (filter.afterId) {
    q = q.where(sql<boolean>`(created_at, id) < (SELECT o.created_at, o.id FROM orders o
      WHERE o.id = ${filter.afterId} AND o.reseller_id = ${resellerId})`);
  }
  return await q.orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit)
    .execute();
}

/** Open reseller orders (new or pending), oldest first; all resellers unless one is given. */
export async function listOpenResellerOrders(
  db: Db,
  options: { resellerId?: string; onlyPending?: boolean; limit: number },
): Promise<OrderRow[]> {
  let q = db.selectFrom("orders").selectAll().where("buyer_type", "=", "reseller")
    .where("status", "in", options.onlyPending ? ["pending"] : [...OPEN_RESELLER_STATES]);
  if (options.resellerId) q = q.where("reseller_id", "=", options.resellerId);
  return await q.orderBy("created_at", "asc").limit(options.limit).execute();
}

/** A status move: from one of `from` to `to`, each pair listed in the lifecycle table. */
export interface StatusMove {
  from: readonly OrderStatus[];
  to: OrderStatus;
}

/**
 * What a move writes besides the status: the supplier's order id, the last error, and Needs review
 * cleared (`review_since`, `review_reason` null) as the lifecycle table says every move does.
 */
export interface MoveChanges {
  supplier_order_id?: string | null;
  /** The HitPay payment that paid it (a paid move); never cleared. */
  payment_id?: string;
  last_error?: string | null;
  review_since?: null;
  review_reason?: null;
  /** A move to another route of the item (`rerouted`): where the order goes now. */
  supplier?: string;
  denom?: string;
  package_ed_name?: string | null;
  supplier_game_id?: string | null;
  cost?: string;
  route_item_key?: string;
}

/** A move that only happens while the order is at `supplier` and not yet sent there. */
export interface UnsentAt {
  supplier: string;
}

/**
 * Refuses a move the lifecycle table (src/shared/order-lifecycle.ts) does not list: no other
 * change of `orders.status` can happen through this repository.
 */
export function assertListedMove(move: StatusMove): void {
  for (const from of move.from) {
    if (!isListedMove(from, move.to)) {
      throw new Error(`order move ${from} → ${move.to} is not in the lifecycle table`);
    }
  }
}

/**
 * Moves an order forward only if it is still in one of `move.from`: one conditional update, so
 * two workers (or a worker and a refresh) can never apply a transition twice; with `unsentAt`,
 * only while it is still at that supplier with no supplier order id. Only the lifecycle's `move`
 * calls it.
 */
export async function transitionOrder(
  db: Handle,
  id: string,
  move: StatusMove,
  changes: MoveChanges,
  unsentAt?: UnsentAt,
): Promise<OrderRow | undefined> {
  assertListedMove(move);
  let q = db.updateTable("orders")
    .set({ ...changes, status: move.to, updated_at: new Date() })
    .where("id", "=", id)
    .where("status", "in", [...move.from]);
  if (unsentAt) {
    q = q.where("supplier", "=", unsentAt.supplier).where("supplier_order_id", "is", null);
  }
  return await q.returningAll().executeTakeFirst();
}

/** A webhook event to queue with an order's move, and the job that delivers it. */
export interface OrderMoveEvent {
  id: string;
  type: string;
  body: string;
  job: { kind: string; payload: Record<string, unknown> };
}

/** An order's move with its webhook events (see transitionOrdersWithEvents). */
export interface OrderMove {
  id: string;
  /** The status move; the order stays where it is when it has moved on. */
  move: StatusMove;
  changes: MoveChanges;
  events: OrderMoveEvent[];
}

/**
 * `transitionOrder` by `move` with `changes` for several orders and, for each order it moved
 * whose reseller has a webhook, its `events` and their delivery jobs, in one statement (one round
 * trip, no explicit transaction): an event exists exactly when its change does. One answer per
 * move, in order: the order as moved, or undefined.
 */
export async function transitionOrdersWithEvents(
  db: Handle,
  move: StatusMove,
  changes: MoveChanges,
  moves: Pick<OrderMove, "id" | "events">[],
): Promise<(OrderRow | undefined)[]> {
  assertListedMove(move);
  const set = { ...changes, status: move.to, updated_at: new Date() };
  const events = moves.flatMap((move) => move.events.map((e) => ({ ...e, order_id: move.id })));
  const ids = moves.map((move) => move.id);
  const { rows } = await sql<OrderRow>`
    WITH moved AS (
      UPDATE orders SET ${
    sql.join(Object.entries(set).map(([column, value]) => sql`${sql.ref(column)} = ${value}`))
  }
      WHERE id = ${anyOfList(ids)} AND status IN (${sql.join([...move.from])})
      RETURNING *
    ), e AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(events)}::text::jsonb)
        AS e(order_id text, id uuid, type text, body text, job jsonb)
    ), events AS (
      INSERT INTO webhook_events (id, reseller_id, type, order_id, body)
      SELECT e.id, w.reseller_id, e.type, moved.id, e.body
      FROM moved JOIN e ON e.order_id = moved.id
        JOIN reseller_webhooks w ON w.reseller_id = moved.reseller_id
      RETURNING id
    ), jobs AS (
      INSERT INTO jobs (kind, payload, run_at)
      SELECT e.job ->> 'kind', e.job -> 'payload', now()
      FROM e WHERE e.id IN (SELECT id FROM events)
    )
    SELECT * FROM moved`.execute(db);
  return inOrderOf(ids, rows, (row) => row.id);
}

/**
 * `transitionOrdersWithEvents` for one order, in one statement with the other moves of the same
 * turn that share its `move` and `changes` (the answers that came in together).
 */
export const transitionOrderWithEvents: (db: Db, move: OrderMove) => Promise<OrderRow | undefined> =
  coalescePerHandle(
    (move) => JSON.stringify([move.move, move.changes]),
    (move) => move.id,
    (db: Db, moves) => transitionOrdersWithEvents(db, moves[0].move, moves[0].changes, moves),
  );

/** Orders by id, one answer per id in order (undefined where there is none). */
export async function findOrdersByIds(
  db: Handle,
  ids: string[],
): Promise<(OrderRow | undefined)[]> {
  const rows = await db.selectFrom("orders").selectAll()
    .where(sql<boolean>`id = ${anyOfList(ids)}`).execute();
  return inOrderOf(ids, rows, (row) => row.id);
}

/**
 * `findOrderById` outside a transaction, in one statement with the other reads of the same turn
 * (the status checks a runner claimed together, a reseller's "Refresh All Status").
 */
export const readOrder: (db: Db, id: string) => Promise<OrderRow | undefined> = coalescePerHandle(
  () => "",
  (id) => id,
  findOrdersByIds,
);

/**
 * Puts an order still in one of `open` in Needs review with `reason` (shown as its last error
 * too); the order, or undefined when it was already there or has moved on (so whoever is told
 * about it is told once, and only about an order that still needs it).
 */
export async function flagOrderForReview(
  db: Handle,
  id: string,
  open: readonly OrderStatus[],
  reason: string,
): Promise<OrderRow | undefined> {
  const text = reason.slice(0, 1000);
  return await db.updateTable("orders")
    .set({
      review_since: new Date(),
      review_reason: text,
      last_error: text,
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .where("status", "in", [...open])
    .where("review_since", "is", null)
    .returningAll()
    .executeTakeFirst();
}

/** Takes an order out of Needs review without moving it (an admin sends it again). */
export async function clearOrderReview(
  db: Handle,
  id: string,
): Promise<OrderRow | undefined> {
  return await db.updateTable("orders")
    .set({ review_since: null, review_reason: null, updated_at: new Date() })
    .where("id", "=", id)
    .where("review_since", "is not", null)
    .returningAll()
    .executeTakeFirst();
}

/** Orders in Needs review that are still open at their supplier, longest waiting first. */
export async function listOrdersInReview(
  db: Db,
  openStatuses: readonly OrderStatus[],
  limit: number,
): Promise<OrderRow[]> {
  return await db.selectFrom("orders").selectAll()
    .where("review_since", "is not", null)
    .where("status", "in", [...openStatuses])
    .orderBy("review_since", "asc").orderBy("id", "asc")
    .limit(limit)
    .execute();
}

/** Records what the supplier said without changing the status (an uncertain answer). */
export async function noteOrderError(db: Db, id: string, error: string): Promise<void> {
  await db.updateTable("orders").set({ last_error: error.slice(0, 1000), updated_at: new Date() })
    .where("id", "=", id).execute();
}

export async function isRestrictedMlbbUser(
  db: Db,
  userId: string,
  serverId: string,
): Promise<boolean> {
  const row = await db.selectFrom("restricted_mlbb_users").select("id")
    .where("user_id", "=", userId).where("server_id", "=", serverId).executeTakeFirst();
  return row !== undefined;
}

/** Inserts an order that moves no balance (consumer orders: paid outside, through HitPay). */
export async function insertOrder(trx: Transaction<Database>, order: NewOrder): Promise<void> {
  await trx.insertInto("orders").values(order).execute();
}

/**
 * Stores the provider's payment request id on an order, once: a second call (or a late answer)
 * never replaces the reference the webhook is matched against.
 */
export async function setPaymentReference(
  db: Db,
  id: string,
  provider: string,
  reference: string,
): Promise<boolean> {
  const result = await db.updateTable("orders")
    .set({ payment_reference: reference, updated_at: new Date() })
    .where("id", "=", id)
    .where("payment_provider", "=", provider)
    .where("payment_reference", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Consumer orders in any of `statuses` (created since `createdSince`), oldest first (reconciliation). */
export async function listConsumerOrdersInStatus(
  db: Db,
  statuses: readonly OrderStatus[],
  limit: number,
  createdSince?: Date,
): Promise<OrderRow[]> {
  let query = db.selectFrom("orders").selectAll()
    .where("status", "in", [...statuses])
    .where("buyer_type", "=", "consumer");
  if (createdSince) query = query.where("created_at", ">=", createdSince);
  return await query.orderBy("created_at", "asc").limit(limit).execute();
}

/** Which orders an admin list or export reads; every field narrows, none given means all. */
export interface OrderFilter {
  buyerType?: "reseller" | "consumer";
  resellerId?: string;
  /** A case-insensitive substring of the searchable fields (migration 0004's search_text). */
  search?: string;
  /** Placed at or after this instant. */
  from?: Date;
  /** Placed before this instant. */
  to?: Date;
}

/** `%text%` for LIKE over lower-cased text, with the pattern characters matched literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Narrows a query on orders to `filter` (the indexes of migrations 0002 and 0004 serve it). */
export function whereOrderFilter<Q extends SelectQueryBuilder<Database, "orders", object>>(
  query: Q,
  filter: OrderFilter,
): Q {
  let q = query as SelectQueryBuilder<Database, "orders", object>;
  if (filter.buyerType) q = q.where("buyer_type", "=", filter.buyerType);
  if (filter.resellerId) q = q.where("reseller_id", "=", filter.resellerId);
  if (filter.search) q = q.where("search_text", "like", containsPattern(filter.search));
  if (filter.from) q = q.where("created_at", ">=", filter.from);
  if (filter.to) q = q.where("created_at", "<", filter.to);
  return q as Q;
}

/** One page of the orders matching `filter`, newest first, with how many match in all. */
export async function listOrdersPage(
  db: Db,
  filter: OrderFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    whereOrderFilter(db.selectFrom("orders").selectAll(), filter)
      .orderBy("created_at", "desc").orderBy("id", "desc")
      .limit(page.limit).offset(page.offset).execute(),
    countOrders(db, filter),
  ]);
  return { rows, total };
}

/** How many orders match `filter`, only those in one of `statuses` when given (index orders_open). */
export async function countOrders(
  db: Db,
  filter: OrderFilter,
  statuses?: readonly OrderStatus[],
): Promise<number> {
  let q = whereOrderFilter(db.selectFrom("orders"), filter);
  if (statuses) q = q.where("status", "in", [...statuses]);
  const row = await q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Refreshes the planner's statistics of the orders table. PostgreSQL's autovacuum does this on its
 * own; PGlite runs no autovacuum, and without statistics its planner reads every order of a tab
 * for a search instead of asking the trigram index (measured: 120 ms instead of 9 ms at 100,000
 * orders). ANALYZE samples a fixed number of rows, so it stays cheap however many orders there are.
 */
export async function analyzeOrders(db: Db): Promise<void> {
  await sql`ANALYZE orders`.execute(db);
}

/**
 * Orders in `statuses`, counted by status and by whether a supplier accepted them (its order id is
 * recorded), with when the oldest of each was placed, for GET /metrics.
 */
export async function openOrderFigures(
  db: Db,
  statuses: readonly string[],
): Promise<{ status: string; sent: boolean; count: number; oldestPlacedAt: Date }[]> {
  const rows = await db.selectFrom("orders")
    .select([
      "status",
      sql<boolean>`(supplier_order_id IS NOT NULL)`.as("sent"),
      sql<number>`count(*)::int`.as("count"),
      sql<Date>`min(created_at)`.as("oldest"),
    ])
    .where("status", "in", [...statuses] as OrderRow["status"][])
    .groupBy(["status", sql`(supplier_order_id IS NOT NULL)`])
    .execute();
  return rows.map((r) => ({
    status: r.status,
    sent: Boolean(r.sent),
    count: Number(r.count),
    oldestPlacedAt: new Date(r.oldest),
  }));
}
