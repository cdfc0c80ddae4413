// Reseller webhooks: a callback URL and a signing secret per reseller; an event for each order
// that reaches successful, error or refunded, written in the transaction of that change (the
// outbox) and POSTed by the `webhook.deliver` job, signed like Stripe's (src/shared/
// webhook-signature.ts), retried on a schedule of about a day, each attempt a delivery row. The
// POST goes only to public addresses, vetted when it is sent (src/integrations/webhooks/).

import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import type { OrderMoveEvent } from "../../db/repositories/orders.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import {
  countEventDeliveries,
  deleteResellerWebhook,
  findOwnDeliveryEventId,
  findResellerWebhook,
  findWebhookEvent,
  insertPendingResend,
  insertWebhookDelivery,
  insertWebhookEvent,
  listWebhookDeliveries,
  upsertResellerWebhook,
} from "../../db/repositories/webhooks.ts";
import { parseIp } from "../../integrations/webhooks/addresses.ts";
import {
  bareHost,
  isAllowedAddress,
  type ResolveHost,
  resolveHostWithSystem,
  type SendOutcome,
  sendWebhook,
  vetHost,
} from "../../integrations/webhooks/sender.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { assertWithinRateLimit, type WindowLimit } from "../auth/rate-limit.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { type JobHandler, kickJobs, queueJob } from "../jobs.ts";
import { currentRequestId } from "../../observability/context.ts";
import { countWebhookDelivery } from "../../observability/metrics.ts";
import { presentResellerOrder } from "../orders/present.ts";
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from "../../shared/webhook-signature.ts";
import type {
  WebhookDeliveryDto,
  WebhookEventType,
  WebhookSavedDto,
  WebhookSettingsDto,
} from "../../shared/webhook-types.ts";

/** The job kind that makes one delivery attempt. */
export const WEBHOOK_DELIVER_JOB = "webhook.deliver";

/**
 * Resends queued per reseller: a receiver back from an outage is caught up by hand within a few
 * windows, while the queue every reseller's deliveries share is never flooded by one.
 */
export const WEBHOOK_RESENDS_PER_RESELLER: WindowLimit = {
  prefix: "webhook-resend",
  max: 30,
  windowSeconds: 600,
};

const PUBLIC_HOST_MESSAGE = "The callback URL must be on a public host";

/** Names that only ever mean this machine or its own network (RFC 6761, 6762, 8375). */
const LOCAL_NAME = /(^|\.)(localhost|localdomain|local|internal|home\.arpa)$/i;

/** The reseller changing their own webhook. */
export interface WebhookActor {
  resellerId: string;
  name: string;
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

/**
 * A callback URL we may POST to: https in production, to a public host (no address literal from
 * the special-purpose registries, no local-only or single-label name); demo mode also takes http
 * and loopback, so a receiver on the same machine works. Where a name leads is checked by
 * resolving it, on saving in production and on every send (`deliverWebhookEvent`).
 */
export function checkWebhookUrl(raw: string, mode: "demo" | "production"): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ValidationError("Enter a full URL, such as https://shop.example/hooks/topup");
  }
  if (url.username || url.password) {
    throw new ValidationError("The callback URL must not carry a user name or password");
  }
  if (mode === "production") {
    if (url.protocol !== "https:") throw new ValidationError("The callback URL must use https");
  } else if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ValidationError("The callback URL must use https or http");
  }
  // "localhost." is localhost: a name's trailing dots do not change where it leads.
  const host = bareHost(url).replace(/\.+$/, "");
  const publicHost = parseIp(host)
    ? isAllowedAddress(host, mode === "demo")
    : mode === "demo" || (host.includes(".") && !LOCAL_NAME.test(host));
  if (!publicHost) throw new ValidationError(PUBLIC_HOST_MESSAGE);
  return url.href;
}

/** The reseller's callback URL as the account page shows it. */
export async function getWebhookSettings(db: Db, resellerId: string): Promise<WebhookSettingsDto> {
  const row = await findResellerWebhook(db, resellerId);
  return { url: row?.url ?? null, updatedAt: row?.updated_at.toISOString() ?? null };
}

/**
 * Sets the callback URL (checked by `checkWebhookUrl`; in production its host must also resolve
 * to public addresses only), audited. The first URL comes with a new signing secret, returned
 * this once; a later change keeps the secret.
 */
export async function setWebhookUrl(
  db: Db,
  box: SecretBox,
  actor: WebhookActor,
  rawUrl: string,
  mode: "demo" | "production",
  resolve: ResolveHost = resolveHostWithSystem,
): Promise<WebhookSavedDto> {
  const url = checkWebhookUrl(rawUrl, mode);
  if (mode === "production") {
    const vetted = await vetHost(bareHost(new URL(url)), { resolve, allowLoopback: false });
    if (!vetted.ok) throw new ValidationError(PUBLIC_HOST_MESSAGE);
  }
  return await db.transaction().execute(async (trx) => {
    const before = await findResellerWebhook(trx, actor.resellerId);
    const secret = before ? undefined : newSecret();
    await upsertResellerWebhook(trx, {
      resellerId: actor.resellerId,
      url,
      secretSealed: before?.secret_sealed ?? box.seal(secret!),
    });
    await insertAudit(trx, {
      actorType: "reseller",
      actorId: actor.resellerId,
      actorName: actor.name,
      action: "reseller.webhook.set_url",
      targetType: "reseller",
      targetId: actor.resellerId,
      before: before ? { url: before.url } : undefined,
      after: { url },
    });
    return secret ? { url, secret } : { url };
  });
}

/** Replaces the signing secret (audited, never the secret itself); returns the new one once. */
export async function rollWebhookSecret(
  db: Db,
  box: SecretBox,
  actor: WebhookActor,
): Promise<WebhookSavedDto> {
  return await db.transaction().execute(async (trx) => {
    const before = await findResellerWebhook(trx, actor.resellerId);
    if (!before) throw new ValidationError("Set a callback URL first");
    const secret = newSecret();
    await upsertResellerWebhook(trx, {
      resellerId: actor.resellerId,
      url: before.url,
      secretSealed: box.seal(secret),
    });
    await insertAudit(trx, {
      actorType: "reseller",
      actorId: actor.resellerId,
      actorName: actor.name,
      action: "reseller.webhook.roll_secret",
      targetType: "reseller",
      targetId: actor.resellerId,
    });
    return { url: before.url, secret };
  });
}

/** The events of `types` about a reseller order as it now stands, each with its delivery job. */
export function orderEvents(order: OrderRow, types: WebhookEventType[]): OrderMoveEvent[] {
  return types.map((type) => {
    const id = crypto.randomUUID();
    const body = JSON.stringify({
      id,
      type,
      created: new Date().toISOString(),
      data: { order: presentResellerOrder(order) },
    });
    return {
      id,
      type,
      body,
      job: { kind: WEBHOOK_DELIVER_JOB, payload: { eventId: id, retry: 0 } },
    };
  });
}

/**
 * Queues `types` for a reseller order in the caller's transaction (the one that changed the
 * order), so an event exists exactly when its change does. Nothing when the order is not a
 * reseller's or the reseller has no webhook.
 */
export async function queueOrderEvents(
  trx: Transaction<Database>,
  order: OrderRow,
  types: WebhookEventType[],
): Promise<void> {
  if (!order.reseller_id) return;
  if (!await findResellerWebhook(trx, order.reseller_id)) return;
  for (const event of orderEvents(order, types)) {
    await insertWebhookEvent(trx, {
      id: event.id,
      resellerId: order.reseller_id,
      type: event.type,
      orderId: order.id,
      body: event.body,
    });
    await queueJob(trx, event.job.kind, event.job.payload);
  }
}

/**
 * Disables a reseller's webhook in the caller's transaction (an admin's password reset): the URL
 * and its secret go, so nothing more is sent until the reseller sets a URL again, with a new
 * secret; queued attempts find no webhook and stop. Audited with the URL it had.
 */
export async function disableWebhook(
  trx: Transaction<Database>,
  resellerId: string,
  actor: OperatorActor,
  reason: string,
): Promise<void> {
  const url = await deleteResellerWebhook(trx, resellerId);
  if (url === undefined) return;
  await insertAudit(trx, {
    ...auditActor(actor),
    action: "reseller.webhook.disable",
    targetType: "reseller",
    targetId: resellerId,
    before: { url },
    after: { url: null, reason },
  });
}

/** Options of the delivery job: the waits before each retry and one attempt's time limit. */
export interface WebhookDeliveryOptions {
  retryDelaysSec: number[];
  timeoutMs: number;
  /** Production sends to public addresses only; the demo also to its own machine. */
  mode: "demo" | "production";
  /** How host names are resolved (the system's resolver unless a test gives its own). */
  resolve?: ResolveHost;
  /** Trust anchors for receivers' certificates instead of the system's (a test's receiver). */
  ca?: string;
}

/** One signed POST of an event's body to the URL (checked again: it was saved under its mode). */
async function postSigned(
  url: string,
  secret: string,
  eventId: string,
  body: string,
  options: WebhookDeliveryOptions,
): Promise<SendOutcome> {
  try {
    checkWebhookUrl(url, options.mode);
  } catch (error) {
    return { statusCode: null, error: `refused: ${(error as Error).message}` };
  }
  return await sendWebhook({
    url,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "TopUp-Webhooks/1",
      "X-TopUp-Event-Id": eventId,
      [WEBHOOK_SIGNATURE_HEADER]: await signWebhook(secret, body, Math.floor(Date.now() / 1000)),
    },
    body,
  }, {
    timeoutMs: options.timeoutMs,
    resolve: options.resolve ?? resolveHostWithSystem,
    allowLoopback: options.mode === "demo",
    ca: options.ca,
  });
}

/**
 * One attempt at an event: signs its stored body with the reseller's current secret, POSTs it to
 * the current URL and records the answer. A failure queues the next attempt after the
 * schedule's next wait; past the last wait (about a day) the event is given up. `retry` -1 is a
 * reseller's Resend: one attempt, no schedule.
 */
export async function deliverWebhookEvent(
  db: Db,
  box: SecretBox,
  payload: Record<string, unknown>,
  options: WebhookDeliveryOptions,
): Promise<boolean> {
  const eventId = String(payload.eventId);
  const retry = Number(payload.retry ?? 0);
  const event = await findWebhookEvent(db, eventId);
  const webhook = event && await findResellerWebhook(db, event.reseller_id);
  if (!event || !webhook) return true;
  const started = performance.now();
  const result = await postSigned(
    webhook.url,
    box.open(webhook.secret_sealed),
    event.id,
    event.body,
    options,
  );
  await insertWebhookDelivery(db, {
    eventId: event.id,
    resellerId: event.reseller_id,
    url: webhook.url,
    attempt: (await countEventDeliveries(db, event.id)) + 1,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: Math.round(performance.now() - started),
  });
  countWebhookDelivery(result.error ? "failed" : "delivered");
  const wait = options.retryDelaysSec[retry];
  if (result.error && retry >= 0 && wait !== undefined) {
    await queueJob(
      db,
      WEBHOOK_DELIVER_JOB,
      { eventId, retry: retry + 1 },
      new Date(Date.now() + wait * 1000),
    );
  }
  return true;
}

/** The job kinds of webhooks, with their handlers. */
export function webhookJobHandlers(
  db: Db,
  box: () => Promise<SecretBox>,
  options: WebhookDeliveryOptions,
): Record<string, JobHandler> {
  return {
    [WEBHOOK_DELIVER_JOB]: async (payload) =>
      deliverWebhookEvent(db, await box(), payload, options),
  };
}

/** The reseller's latest delivery attempts, newest first. */
export async function listDeliveries(db: Db, resellerId: string): Promise<WebhookDeliveryDto[]> {
  const rows = await listWebhookDeliveries(db, resellerId, 50);
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    orderId: r.order_id,
    url: r.url,
    attempt: r.attempt,
    statusCode: r.status_code,
    ok: r.error === null,
    error: r.error,
    durationMs: r.duration_ms,
    at: r.at.toISOString(),
  }));
}

/**
 * Sends a delivery's event again (same id and body, so a receiver that saw it drops it); another
 * reseller's delivery is not found. One resend per event waits at a time (409 while one does),
 * and a reseller queues at most `WEBHOOK_RESENDS_PER_RESELLER` (429): the queue is shared. Both
 * hold under any parallelism: the pending resend is a conditional insert (a unique index), and
 * the rate is counted in the same transaction, so a refused resend counts nothing.
 */
export async function resendDelivery(
  db: Db,
  resellerId: string,
  deliveryId: string,
): Promise<void> {
  const eventId = await findOwnDeliveryEventId(db, resellerId, deliveryId);
  if (!eventId) throw new NotFoundError("Delivery not found");
  await db.transaction().execute(async (trx) => {
    if (!await insertPendingResend(trx, WEBHOOK_DELIVER_JOB, eventId, currentRequestId())) {
      throw new ConflictError(
        "This event is already queued to be sent again; refresh to see its answer",
      );
    }
    await assertWithinRateLimit(trx, WEBHOOK_RESENDS_PER_RESELLER, resellerId);
  });
  kickJobs(WEBHOOK_DELIVER_JOB);
}
