import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import { jobValues } from "./jobs.ts";
import type {
  Database,
  ResellerWebhookRow,
  WebhookDeliveryRow,
  WebhookEventRow,
} from "../schema.ts";

type Handle = Db | Transaction<Database>;

/** A reseller's webhook settings, or undefined when none was set. */
export async function findResellerWebhook(
  db: Handle,
  resellerId: string,
): Promise<ResellerWebhookRow | undefined> {
  return await db.selectFrom("reseller_webhooks").selectAll()
    .where("reseller_id", "=", resellerId).executeTakeFirst();
}

/** Sets a reseller's URL and sealed secret (creating the row on first use). */
export async function upsertResellerWebhook(
  trx: Transaction<Database>,
  row: { resellerId: string; url: string; secretSealed: string },
): Promise<void> {
  await trx.insertInto("reseller_webhooks")
    .values({ reseller_id: row.resellerId, url: row.url, secret_sealed: row.secretSealed })
    .onConflict((oc) =>
      oc.column("reseller_id").doUpdateSet({
        url: row.url,
        secret_sealed: row.secretSealed,
        updated_at: new Date(),
      })
    )
    .execute();
}

/** Deletes a reseller's webhook settings; the URL they had, or undefined when there were none. */
export async function deleteResellerWebhook(
  trx: Transaction<Database>,
  resellerId: string,
): Promise<string | undefined> {
  const row = await trx.deleteFrom("reseller_webhooks").where("reseller_id", "=", resellerId)
    .returning("url").executeTakeFirst();
  return row?.url;
}

/**
 * Queues a resend of an event (a `kind` job with retry -1) unless one is already waiting: the
 * unique index of migration 0011 holds one pending resend per event, so parallel inserts leave
 * exactly one. False when one was waiting.
 */
export async function insertPendingResend(
  trx: Transaction<Database>,
  kind: string,
  eventId: string,
  requestId?: string,
): Promise<boolean> {
  const row = await trx.insertInto("jobs")
    .values(jobValues({ kind, payload: { eventId, retry: -1 }, requestId }))
    .onConflict((oc) => oc.doNothing())
    .returning("id").executeTakeFirst();
  return row !== undefined;
}

/** Records an event in the caller's transaction. */
export async function insertWebhookEvent(
  trx: Transaction<Database>,
  event: { id: string; resellerId: string; type: string; orderId: string; body: string },
): Promise<void> {
  await trx.insertInto("webhook_events").values({
    id: event.id,
    reseller_id: event.resellerId,
    type: event.type,
    order_id: event.orderId,
    body: event.body,
  }).execute();
}

export async function findWebhookEvent(
  db: Db,
  id: string,
): Promise<WebhookEventRow | undefined> {
  return await db.selectFrom("webhook_events").selectAll().where("id", "=", id)
    .executeTakeFirst();
}

export async function insertWebhookDelivery(
  db: Db,
  delivery: {
    eventId: string;
    resellerId: string;
    url: string;
    attempt: number;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
  },
): Promise<void> {
  await db.insertInto("webhook_deliveries").values({
    event_id: delivery.eventId,
    reseller_id: delivery.resellerId,
    url: delivery.url,
    attempt: delivery.attempt,
    status_code: delivery.statusCode,
    error: delivery.error,
    duration_ms: delivery.durationMs,
  }).execute();
}

/** A delivery with its event's type and order, for the account page. */
export type WebhookDeliveryListRow = WebhookDeliveryRow & { type: string; order_id: string };

/** A reseller's latest deliveries, newest first. */
export async function listWebhookDeliveries(
  db: Db,
  resellerId: string,
  limit: number,
): Promise<WebhookDeliveryListRow[]> {
  return await db.selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_events as e", "e.id", "d.event_id")
    .selectAll("d")
    .select(["e.type", "e.order_id"])
    .where("d.reseller_id", "=", resellerId)
    .orderBy("d.at", "desc").orderBy("d.id", "desc")
    .limit(limit)
    .execute();
}

/** The event of a reseller's own delivery; undefined when it is not theirs or does not exist. */
export async function findOwnDeliveryEventId(
  db: Db,
  resellerId: string,
  deliveryId: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("webhook_deliveries").select("event_id")
    .where("id", "=", deliveryId).where("reseller_id", "=", resellerId)
    .executeTakeFirst();
  return row?.event_id;
}

/** How many attempts an event has had. */
export async function countEventDeliveries(db: Db, eventId: string): Promise<number> {
  const row = await db.selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("event_id", "=", eventId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes events created over `days` ago, with their deliveries; returns how many events. */
export async function deleteWebhookEventsOlderThan(db: Db, days: number): Promise<number> {
  const r = await db.deleteFrom("webhook_events")
    .where("created_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
