import type { Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, NewOrder, OrderRow } from "../schema.ts";

type Handle = Db | Transaction<Database>;

/** Reseller order states that may still change (spec §4: only new or pending can be refreshed). */
export const OPEN_RESELLER_STATUSES = ["new", "pending"] as const;

export async function findOrderById(db: Handle, id: string): Promise<OrderRow | undefined> {
  return await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
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

/** Open reseller orders (new or pending), oldest first; all resellers unless one is given. */
export async function listOpenResellerOrders(
  db: Db,
  options: { resellerId?: string; onlyPending?: boolean; limit: number },
): Promise<OrderRow[]> {
  let q = db.selectFrom("orders").selectAll().where("buyer_type", "=", "reseller")
    .where("status", "in", options.onlyPending ? ["pending"] : [...OPEN_RESELLER_STATUSES]);
  if (options.resellerId) q = q.where("reseller_id", "=", options.resellerId);
  return await q.orderBy("created_at", "asc").limit(options.limit).execute();
}

/**
 * Moves an order forward only if it is still in one of `from`: one conditional update, so two
 * workers (or a worker and a refresh) can never apply a transition twice.
 */
export async function transitionOrder(
  db: Handle,
  id: string,
  from: readonly string[],
  changes: { status: string; supplier_order_id?: string | null; last_error?: string | null },
): Promise<OrderRow | undefined> {
  return await db.updateTable("orders")
    .set({ ...changes, updated_at: new Date() })
    .where("id", "=", id)
    .where("status", "in", [...from])
    .returningAll()
    .executeTakeFirst();
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

/** An order's status alone: what the public status poll may reveal. */
export async function findOrderStatus(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("orders").select("status").where("id", "=", id)
    .executeTakeFirst();
  return row?.status;
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

/** Consumer orders in one status, oldest first (reconciliation). */
export async function listConsumerOrdersInStatus(
  db: Db,
  status: string,
  limit: number,
): Promise<OrderRow[]> {
  return await db.selectFrom("orders").selectAll()
    .where("status", "=", status)
    .where("buyer_type", "=", "consumer")
    .orderBy("created_at", "asc")
    .limit(limit)
    .execute();
}
