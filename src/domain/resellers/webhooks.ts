// Reseller webhooks: a callback URL and a signing secret per reseller; an event for each order
// that reaches successful, error or refunded, written in the transaction of that change (the
// outbox) and POSTed by the `webhook.deliver` job, signed like Stripe's (src/shared/
// webhook-signature.ts), retried on a schedule of about a day, each attempt a delivery row.

import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { enqueueJob } from "../../db/repositories/jobs.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import {
  countEventDeliveries,
  findOwnDeliveryEventId,
  findResellerWebhook,
  findWebhookEvent,
  insertWebhookDelivery,
  insertWebhookEvent,
  listWebhookDeliveries,
  upsertResellerWebhook,
} from "../../db/repositories/webhooks.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { JobHandler } from "../jobs.ts";
import { kickJobs } from "../jobs.ts";
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

/** How much of a receiver's answer a delivery row keeps. */
const EXCERPT_CHARS = 500;

/** The reseller changing their own webhook. */
export interface WebhookActor {
  resellerId: string;
  name: string;
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

const PRIVATE_HOST =
  /^(localhost|.*\.localhost|.*\.internal|.*\.local|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|0\.0\.0\.0|\[.*\])$/i;

/**
 * A callback URL we may POST to: https in production, to a public host name (no localhost,
 * private or link-local address literals, no IPv6 literals); demo mode also takes http and
 * local hosts, so a receiver on the same machine works.
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
    if (PRIVATE_HOST.test(url.hostname)) {
      throw new ValidationError("The callback URL must be on a public host");
    }
  } else if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ValidationError("The callback URL must use https or http");
  }
  return url.href;
}

/** The reseller's callback URL as the account page shows it. */
export async function getWebhookSettings(db: Db, resellerId: string): Promise<WebhookSettingsDto> {
  const row = await findResellerWebhook(db, resellerId);
  return { url: row?.url ?? null, updatedAt: row?.updated_at.toISOString() ?? null };
}

/**
 * Sets the callback URL (checked by `checkWebhookUrl`), audited. The first URL comes with a new signing secret, returned
 * this once; a later change keeps the secret.
 */
export async function setWebhookUrl(
  db: Db,
  box: SecretBox,
  actor: WebhookActor,
  rawUrl: string,
  mode: "demo" | "production",
): Promise<WebhookSavedDto> {
  const url = checkWebhookUrl(rawUrl, mode);
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
  for (const type of types) {
    const id = crypto.randomUUID();
    const body = JSON.stringify({
      id,
      type,
      created: new Date().toISOString(),
      data: { order: presentResellerOrder(order) },
    });
    await insertWebhookEvent(trx, {
      id,
      resellerId: order.reseller_id,
      type,
      orderId: order.id,
      body,
    });
    await enqueueJob(trx, WEBHOOK_DELIVER_JOB, { eventId: id, retry: 0 });
  }
}

/** Reads at most `max` characters of an answer, then stops reading. */
async function readExcerpt(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (text.length < max) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel().catch(() => {});
  return text.slice(0, max);
}

/** One POST of an event's body; what came back, or why nothing did. */
async function postSigned(
  url: string,
  secret: string,
  eventId: string,
  body: string,
  timeoutMs: number,
): Promise<{ statusCode: number | null; excerpt: string; error: string | null; ms: number }> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "TopUp-Webhooks/1",
        "X-TopUp-Event-Id": eventId,
        [WEBHOOK_SIGNATURE_HEADER]: await signWebhook(
          secret,
          body,
          Math.floor(Date.now() / 1000),
        ),
      },
      body,
      redirect: "manual",
      signal,
    });
    const excerpt = await readExcerpt(response, EXCERPT_CHARS);
    const ok = response.status >= 200 && response.status < 300;
    return {
      statusCode: response.status,
      excerpt,
      error: ok ? null : `HTTP ${response.status}`,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    const message = signal.aborted
      ? `no answer within ${timeoutMs} ms`
      : `cannot reach ${new URL(url).host}: ${error instanceof Error ? error.message : error}`;
    return {
      statusCode: null,
      excerpt: "",
      error: message.slice(0, 500),
      ms: Math.round(performance.now() - started),
    };
  }
}

/** Options of the delivery job: the waits before each retry and one attempt's time limit. */
export interface WebhookDeliveryOptions {
  retryDelaysSec: number[];
  timeoutMs: number;
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
  const result = await postSigned(
    webhook.url,
    box.open(webhook.secret_sealed),
    event.id,
    event.body,
    options.timeoutMs,
  );
  await insertWebhookDelivery(db, {
    eventId: event.id,
    resellerId: event.reseller_id,
    url: webhook.url,
    attempt: (await countEventDeliveries(db, event.id)) + 1,
    statusCode: result.statusCode,
    responseExcerpt: result.excerpt,
    error: result.error,
    durationMs: result.ms,
  });
  const wait = options.retryDelaysSec[retry];
  if (result.error && retry >= 0 && wait !== undefined) {
    await enqueueJob(
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
    responseExcerpt: r.response_excerpt,
    error: r.error,
    durationMs: r.duration_ms,
    at: r.at.toISOString(),
  }));
}

/**
 * Sends a delivery's event again (same id and body, so a receiver that saw it drops it); another
 * reseller's delivery is not found.
 */
export async function resendDelivery(
  db: Db,
  resellerId: string,
  deliveryId: string,
): Promise<void> {
  const eventId = await findOwnDeliveryEventId(db, resellerId, deliveryId);
  if (!eventId) throw new NotFoundError("Delivery not found");
  await enqueueJob(db, WEBHOOK_DELIVER_JOB, { eventId, retry: -1 });
  kickJobs(WEBHOOK_DELIVER_JOB);
}
