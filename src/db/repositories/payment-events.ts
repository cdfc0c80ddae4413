import type { Transaction } from "kysely";
import type { Database } from "../schema.ts";

/**
 * Stores a payment event once: UNIQUE (provider, event_key) makes a replay (or a parallel copy)
 * insert nothing. Returns the new row's id, or undefined when the event was already stored.
 */
export async function insertPaymentEventOnce(
  trx: Transaction<Database>,
  event: { provider: string; eventKey: string; rawBody: string },
): Promise<number | undefined> {
  const row = await trx.insertInto("payment_events")
    .values({ provider: event.provider, event_key: event.eventKey, raw_body: event.rawBody })
    .onConflict((oc) => oc.columns(["provider", "event_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** Records which order an event named and what it did to it. */
export async function setPaymentEventOutcome(
  trx: Transaction<Database>,
  id: number,
  orderId: string | null,
  outcome: string,
): Promise<void> {
  await trx.updateTable("payment_events")
    .set({ order_id: orderId, outcome: outcome.slice(0, 500) })
    .where("id", "=", id)
    .execute();
}
