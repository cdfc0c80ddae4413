// A local HitPay speaking the wire format of external-apis.md §3: the payment-request API (JSON or
// form bodies, X-BUSINESS-API-KEY, HitPay's error shapes, formatted amounts), a hosted checkout
// page with Pay / Fail / Cancel, and the signed v1 webhook. Webhooks go out in the background:
// the app may be the very server handling the request that triggered them. Its answers have the
// keys and value types of HitPay's documented ones: tests/integrations/hitpay-contract_test.ts
// compares them with the recorded answers of tests/fixtures/hitpay/.

import { HITPAY_SIMULATOR_CREDENTIALS } from "../../config.ts";
import { centsToAmountString, centsToDecimalString, dollarsToCents } from "../../domain/money.ts";
import {
  createFaultGate,
  routeAfterBase,
  type SimulatorFaultLevers,
  type SimulatorKnobs,
} from "../simulator-kit.ts";
import { HITPAY_MINIMUM_AMOUNT_CENTS } from "./client.ts";
import { renderCheckoutPage, renderMissingCheckoutPage } from "./checkout-page.ts";
import {
  HITPAY_PAYMENT_METHOD_CODES,
  HITPAY_SANDBOX_PAYMENT_METHOD_CODES,
} from "./payment-methods.ts";
import type { PaymentRequestStatusValue, PaymentStatusValue } from "./statuses.ts";
import { signHitPayV1 } from "./webhook.ts";

/** How to build a HitPay simulator; every field has a default. */
export interface HitPaySimulatorOptions {
  /** Path prefix the handler is mounted under, e.g. "/__sim/hitpay". */
  basePath?: string;
  apiKey?: string;
  /** Signs the webhooks. */
  salt?: string;
  /** Origin of checkout links; unset: the origin the create call was sent to. */
  publicUrl?: string;
  knobs?: Partial<SimulatorKnobs>;
  /** Seed of the random fault draws. */
  seed?: number;
  /** Clock, ms since epoch. */
  now?: () => number;
  /** Offer only what HitPay's sandbox offers (`card`, `paynow_online`); other codes get its 422. */
  sandbox?: boolean;
}

/** One attempt to deliver a webhook. */
export interface HitPayWebhookDelivery {
  url: string;
  /** The form-encoded body sent, hmac included. */
  body: string;
  /** The app's HTTP status, or null when it could not be reached. */
  status: number | null;
  error?: string;
  at: string;
}

/** A payment made against a request on the checkout page or through a lever (`payments[]`). */
export interface HitPaySimPayment {
  id: string;
  quantity: number;
  /**
   * HitPay's payment status: a payment that went through is "succeeded", never "completed"; a
   * refund makes it "refunded" or "partially_refunded" while its request stays "completed".
   */
  status: Extract<
    PaymentStatusValue,
    "succeeded" | "failed" | "refunded" | "partially_refunded"
  >;
  buyer_name: string | null;
  buyer_phone: string | null;
  buyer_email: string | null;
  currency: string;
  /** A formatted string, as the request's ("1,234.50"). */
  amount: string;
  refunded_amount: string;
  payment_type: string;
  fees: string;
  created_at: string;
  updated_at: string;
}

/** A payment request as the simulator keeps it: HitPay's fields, payments and webhook attempts. */
export interface HitPaySimRequest {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  /** Formatted with thousands separators, as HitPay answers ("900,000.00"). */
  amount: string;
  /** Lower case, as HitPay answers ("sgd"). */
  currency: string;
  is_currency_editable: false;
  /** "completed" once paid; "expired" once its expiry passed unpaid. */
  status: Extract<PaymentRequestStatusValue, "pending" | "completed" | "failed" | "expired">;
  purpose: string | null;
  reference_number: string | null;
  payment_methods: string[];
  url: string;
  redirect_url: string | null;
  webhook: string | null;
  send_sms: boolean;
  send_email: boolean;
  sms_status: string;
  email_status: string;
  allow_repeated_payments: false;
  /** Singapore time, "2022-10-10T01:01:01", from `expires_after`; null: it never expires. */
  expiry_date: string | null;
  line_items: null;
  created_at: string;
  updated_at: string;
  staff_id: null;
  business_location_id: null;
  payments: HitPaySimPayment[];
  /** Simulator only: every webhook attempt, oldest first. */
  webhooks: HitPayWebhookDelivery[];
}

/**
 * A refund as POST /v1/refund answers it (HitPay's OpenAPI, operationId `refund`, response
 * example "Result"; tests/fixtures/hitpay/refund.ts).
 */
export interface HitPaySimRefund {
  id: string;
  refunded_by: string;
  payment_id: string;
  /** Dollars, a JSON number. */
  amount_refunded: number;
  /** The payment's amount, dollars. */
  total_amount: number;
  /** Lower case, "sgd". */
  currency: string;
  status: "succeeded";
  payment_method: string;
  provider_fee: null;
  provider_fee_currency: null;
  /** "2025-05-21T09:17:52.000000Z" (UTC). */
  refunded_at: string;
  /** "2025-05-21T17:17:52" (Singapore time in HitPay's example; the simulator's clock here). */
  created_at: string;
}

/** An in-memory HitPay: its handler, live knobs, fault levers and payment levers. */
export interface HitPaySimulator extends SimulatorFaultLevers {
  handler: (request: Request) => Promise<Response>;
  /** Pays a pending request as the Pay button does (without a browser); sends the webhook. */
  pay(id: string, method?: string): HitPaySimRequest;
  /** Ends a pending request's time to pay now, as its `expires_after` passing does. */
  expire(id: string): HitPaySimRequest;
  /**
   * Completes a payment the buyer began before the request expired (a bank's slow confirmation):
   * the request is paid though it had expired; sends the webhook.
   */
  payLate(id: string, method?: string): HitPaySimRequest;
  /** Fails a pending request as the Fail button does; sends the webhook. */
  fail(id: string, method?: string): HitPaySimRequest;
  /**
   * Refunds the request's succeeded payment as HitPay's dashboard (or POST /v1/refund) does:
   * the whole amount, or `amount` ("1.50"); the request itself stays "completed".
   */
  refund(id: string, amount?: string): HitPaySimRefund;
  /** Sends the request's last webhook again, as HitPay's retries do. */
  resendWebhook(id: string): HitPaySimRequest;
  /** While true, Pay and Fail record their webhook without sending it (resendWebhook sends it). */
  holdWebhooks(hold: boolean): void;
  /** Every payment request, oldest first. */
  listRequests(): HitPaySimRequest[];
  /** Every refund made (through the API or the `refund` lever), oldest first. */
  listRefunds(): HitPaySimRefund[];
  /** Resolves when every webhook sent so far has been answered; returns listRequests(). */
  awaitWebhooks(): Promise<HitPaySimRequest[]>;
}

/** Fault endpoint names (for forceNext and failEndpoint). */
export const HITPAY_CREATE_ENDPOINT = "create";
export const HITPAY_STATUS_ENDPOINT = "status";
export const HITPAY_REFUND_ENDPOINT = "refund";

/** HitPay's largest charge, in cents (999,999,999.99; its OpenAPI). */
const MAXIMUM_CENTS = 99_999_999_999;
const WEBHOOK_TIMEOUT_MS = 10_000;
const CHECKOUT_PREFIX = "payment-request/@topup-demo/";

type Fields = Record<string, string | string[]>;

/** HitPay's timestamp format, "2022-09-20T13:09:42". */
function hitpayDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

function message(status: number, text: string): Response {
  return Response.json({ message: text }, { status });
}

/** HitPay's 422 for a refund it will not make: the message, and the field it is about. */
function refusal(text: string): Response {
  return Response.json({ message: text, errors: { payment_id: [text] } }, { status: 422 });
}

/**
 * The refusal a refund's "error" fault answers. HitPay documents no refusal texts; this one is the
 * simulator's own.
 */
export const REFUND_REFUSED_MESSAGE = "This payment can no longer be refunded.";

/** Reads a JSON or form body (with `payment_methods[]`) into plain fields. */
async function readFields(request: Request): Promise<Fields | null> {
  const raw = await request.text();
  if ((request.headers.get("content-type") ?? "").includes("application/json")) {
    try {
      const json = JSON.parse(raw);
      if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
      return Object.fromEntries(
        Object.entries(json).map(([key, value]) => [
          key,
          Array.isArray(value) ? value.map(String) : value === null ? "" : String(value),
        ]),
      );
    } catch {
      return null;
    }
  }
  const fields: Fields = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (key.endsWith("[]")) {
      const name = key.slice(0, -2);
      fields[name] = [...(fields[name] ?? []), value];
    } else fields[key] = value;
  }
  return fields;
}

/**
 * `expires_after` as milliseconds: HitPay's OpenAPI describes "30 mins" with the keys "mins",
 * "hours" and "days", and its example reads "5 minutes"; both spellings are taken.
 */
function expiresAfterMs(text: string): number | null {
  const match = /^(\d{1,6})\s*(mins?|minutes?|hours?|days?)$/.exec(text.trim());
  if (!match) return null;
  const unit = match[2].startsWith("m")
    ? 60_000
    : match[2].startsWith("h")
    ? 3_600_000
    : 86_400_000;
  return Number(match[1]) * unit;
}

/** Laravel-style 422 errors, with the messages of HitPay's OpenAPI where it gives them. */
function validate(fields: Fields, knownMethods: ReadonlySet<string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const one = (name: string) => typeof fields[name] === "string" ? fields[name] as string : "";
  const amount = one("amount").replaceAll(",", "");
  if (amount === "") errors.amount = ["The amount field is required."];
  else if (
    !/^\d+(\.\d{1,2})?$/.test(amount) || dollarsToCents(amount) < HITPAY_MINIMUM_AMOUNT_CENTS ||
    dollarsToCents(amount) > MAXIMUM_CENTS
  ) {
    errors.amount = ["The amount must be between 0.3 and 999999999.99."];
  }
  if (!/^[A-Za-z]{3}$/.test(one("currency"))) {
    errors.currency = ["The currency field is required."];
  }
  for (const name of ["redirect_url", "webhook"]) {
    if (one(name) !== "" && !URL.canParse(one(name))) {
      errors[name] = [`The ${name.replace("_", " ")} format is invalid.`];
    }
  }
  if (one("email") !== "" && !/^[^@\s]+@[^@\s]+$/.test(one("email"))) {
    errors.email = ["The email must be a valid email address."];
  }
  if (one("expires_after") !== "" && expiresAfterMs(one("expires_after")) === null) {
    errors.expires_after = ["The expires after format is invalid."];
  }
  const methods = fields.payment_methods;
  if (
    methods !== undefined && (!Array.isArray(methods) || methods.some((m) => !knownMethods.has(m)))
  ) {
    errors.payment_methods = ["The selected payment methods is invalid."];
  }
  return errors;
}

/** Creates an in-memory HitPay. */
export function createHitPaySimulator(options: HitPaySimulatorOptions = {}): HitPaySimulator {
  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  const apiKey = options.apiKey ?? HITPAY_SIMULATOR_CREDENTIALS.apiKey;
  const salt = options.salt ?? HITPAY_SIMULATOR_CREDENTIALS.salt;
  const now = options.now ?? Date.now;
  const knownMethods: ReadonlySet<string> = new Set(
    options.sandbox ? HITPAY_SANDBOX_PAYMENT_METHOD_CODES : HITPAY_PAYMENT_METHOD_CODES,
  );
  const gate = createFaultGate(options);
  const requests = new Map<string, HitPaySimRequest>();
  const refunds = new Map<string, HitPaySimRefund>();
  /** When each request with an `expires_after` stops taking payment, ms since epoch. */
  const expiries = new Map<string, number>();
  /** The last webhook body of each request, to resend. */
  const lastWebhook = new Map<string, string>();
  const inFlight = new Set<Promise<void>>();
  let holding = false;

  /** A request, "expired" once its expiry passed while it was still pending. */
  function lookUp(id: string): HitPaySimRequest | undefined {
    const record = requests.get(id);
    const expiry = expiries.get(id);
    if (record?.status === "pending" && expiry !== undefined && expiry <= now()) {
      record.status = "expired";
      record.updated_at = hitpayDate(expiry);
    }
    return record;
  }

  function find(id: string): HitPaySimRequest {
    const found = lookUp(id);
    if (!found) throw new RangeError(`no HitPay payment request ${id}`);
    return found;
  }

  function deliver(record: HitPaySimRequest, body: string): void {
    if (!record.webhook) return;
    const url = record.webhook;
    const delivery: HitPayWebhookDelivery = { url, body, status: null, at: hitpayDate(now()) };
    record.webhooks.push(delivery);
    const sending = fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    }).then(async (response) => {
      delivery.status = response.status;
      await response.body?.cancel();
    }, (error: unknown) => {
      delivery.error = error instanceof Error ? error.message : String(error);
    }).finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  }

  /**
   * Records a payment (`succeeded` or `failed`), moves the request to `completed` or `failed`
   * and sends (or holds) the signed v1 webhook, which reports the request's word.
   */
  function settle(id: string, paid: boolean, method?: string, late = false): HitPaySimRequest {
    const record = find(id);
    if (record.status !== "pending" && !(late && record.status === "expired")) {
      throw new RangeError(`HitPay payment request ${id} is ${record.status}, not pending`);
    }
    const at = hitpayDate(now());
    const payment: HitPaySimPayment = {
      id: crypto.randomUUID(),
      quantity: 1,
      status: paid ? "succeeded" : "failed",
      buyer_name: record.name,
      buyer_phone: record.phone,
      buyer_email: record.email,
      currency: record.currency,
      amount: record.amount,
      refunded_amount: "0.00",
      payment_type: method ?? record.payment_methods[0] ?? "paynow_online",
      fees: "0.00",
      created_at: at,
      updated_at: at,
    };
    record.payments.push(payment);
    record.status = paid ? "completed" : "failed";
    record.updated_at = at;
    // The v1 webhook's amount and currency as HitPay's docs show them: "599.00", "SGD".
    const fields = {
      payment_id: payment.id,
      payment_request_id: record.id,
      phone: record.phone ?? "",
      amount: centsToDecimalString(dollarsToCents(record.amount.replaceAll(",", ""))),
      currency: record.currency.toUpperCase(),
      status: record.status,
      reference_number: record.reference_number ?? "",
    };
    const body = new URLSearchParams({ ...fields, hmac: signHitPayV1(fields, salt) }).toString();
    lastWebhook.set(id, body);
    if (!holding) deliver(record, body);
    return record;
  }

  /**
   * Refunds `cents` of a payment that went through, as HitPay's refund API does: the payment
   * becomes "refunded" (or "partially_refunded" while some remains) and its request stays
   * "completed". A refusal is the message of a 422; HitPay documents no refusal texts, so these
   * are the simulator's own.
   */
  function refundPayment(paymentId: string, cents: number | null): HitPaySimRefund | string {
    const record = [...requests.values()].find((r) => r.payments.some((p) => p.id === paymentId));
    const payment = record?.payments.find((p) => p.id === paymentId);
    if (!record || !payment) return "The selected payment id is invalid.";
    if (payment.status !== "succeeded" && payment.status !== "partially_refunded") {
      return `The payment is ${payment.status} and cannot be refunded.`;
    }
    const paidCents = dollarsToCents(payment.amount.replaceAll(",", ""));
    const refundedCents = dollarsToCents(payment.refunded_amount.replaceAll(",", ""));
    const asked = cents ?? paidCents - refundedCents;
    if (asked <= 0 || asked > paidCents - refundedCents) {
      return "The amount may not be greater than the amount left to refund.";
    }
    const at = now();
    payment.refunded_amount = centsToAmountString(refundedCents + asked);
    payment.status = refundedCents + asked === paidCents ? "refunded" : "partially_refunded";
    payment.updated_at = hitpayDate(at);
    const refund: HitPaySimRefund = {
      id: crypto.randomUUID(),
      refunded_by: "TopUp Simulator",
      payment_id: payment.id,
      amount_refunded: Number(centsToDecimalString(asked)),
      total_amount: Number(centsToDecimalString(paidCents)),
      currency: payment.currency,
      status: "succeeded",
      payment_method: payment.payment_type,
      provider_fee: null,
      provider_fee_currency: null,
      refunded_at: new Date(at).toISOString().replace("Z", "000Z"),
      created_at: hitpayDate(at),
    };
    refunds.set(refund.id, refund);
    return refund;
  }

  /** The browser's way back to the shop: redirect_url plus reference and status. */
  function returnUrl(record: HitPaySimRequest, status: string): string | null {
    if (!record.redirect_url) return null;
    const url = new URL(record.redirect_url);
    url.searchParams.set("reference", record.id);
    url.searchParams.set("status", status);
    return url.toString();
  }

  function create(fields: Fields, origin: string): Response {
    const errors = validate(fields, knownMethods);
    const [first] = Object.values(errors);
    // HitPay's 422: the first error as the message, every error by field (its OpenAPI example).
    if (first) return Response.json({ message: first[0], errors }, { status: 422 });
    const text = (name: string) => {
      const value = fields[name];
      return typeof value === "string" && value !== "" ? value : null;
    };
    const id = crypto.randomUUID();
    const at = hitpayDate(now());
    const expiresAfter = typeof fields.expires_after === "string"
      ? expiresAfterMs(fields.expires_after)
      : null;
    if (expiresAfter !== null) expiries.set(id, now() + expiresAfter);
    const cents = dollarsToCents((fields.amount as string).replaceAll(",", ""));
    const record: HitPaySimRequest = {
      id,
      name: text("name"),
      email: text("email"),
      phone: text("phone"),
      amount: centsToAmountString(cents),
      currency: (fields.currency as string).toLowerCase(),
      is_currency_editable: false,
      status: "pending",
      purpose: text("purpose"),
      reference_number: text("reference_number"),
      payment_methods: Array.isArray(fields.payment_methods) ? fields.payment_methods : [],
      url: `${options.publicUrl ?? origin}${basePath}/${CHECKOUT_PREFIX}${id}/checkout`,
      redirect_url: text("redirect_url"),
      webhook: text("webhook"),
      send_sms: fields.send_sms === "true",
      send_email: fields.send_email === "true",
      sms_status: "pending",
      email_status: "pending",
      allow_repeated_payments: false,
      expiry_date: expiresAfter === null ? null : hitpayDate(now() + expiresAfter),
      line_items: null,
      created_at: at,
      updated_at: at,
      staff_id: null,
      business_location_id: null,
      payments: [],
      webhooks: [],
    };
    requests.set(id, record);
    return Response.json(wire(record));
  }

  /** The API view of a request: HitPay's fields, without the simulator's webhook log. */
  function wire(record: HitPaySimRequest, withPayments = false) {
    const { payments, webhooks: _webhooks, ...fields } = record;
    return withPayments ? { ...fields, payments } : fields;
  }

  async function api(request: Request, route: string): Promise<Response> {
    if (request.headers.get("x-business-api-key") !== apiKey) {
      return message(403, "Invalid business api key");
    }
    const creating = route === "payment-requests" && request.method === "POST";
    const getMatch = request.method === "GET" ? /^payment-requests\/([^/]+)$/.exec(route) : null;
    const refunding = route === "refund" && request.method === "POST";
    const refundMatch = request.method === "GET" ? /^refund\/([^/]+)$/.exec(route) : null;
    if (!creating && !getMatch && !refunding && !refundMatch) return message(404, "Not Found");
    // The body is read first, as a server does, so a caller leaving during the latency is harmless.
    const fields = creating || refunding ? await readFields(request) : null;
    const endpoint = creating
      ? HITPAY_CREATE_ENDPOINT
      : refunding || refundMatch
      ? HITPAY_REFUND_ENDPOINT
      : HITPAY_STATUS_ENDPOINT;
    // A refund's "error" fault is HitPay saying no, its 422 (a payment method that cannot be
    // refunded, a refund window passed); elsewhere it is a server error.
    const fault = await gate.pass(
      request,
      endpoint,
      endpoint === HITPAY_REFUND_ENDPOINT && refunding
        ? () => refusal(REFUND_REFUSED_MESSAGE)
        : () => message(500, "Server Error"),
    );
    if (fault) return fault;
    if ((creating || refunding) && fields === null) {
      return message(400, "The request body is not valid JSON.");
    }
    if (creating) return create(fields!, new URL(request.url).origin);
    if (refunding) return refundFromApi(fields!);
    if (refundMatch) {
      const refund = refunds.get(decodeURIComponent(refundMatch[1]));
      return refund ? Response.json(refund) : message(404, "Not Found");
    }
    const record = lookUp(decodeURIComponent(getMatch![1]));
    return record ? Response.json(wire(record, true)) : message(404, "Not Found");
  }

  /** POST /v1/refund: `payment_id` and `amount` (a number, or its text in a form body). */
  function refundFromApi(fields: Fields): Response {
    const paymentId = typeof fields.payment_id === "string" ? fields.payment_id : "";
    const amount = typeof fields.amount === "string" ? fields.amount.trim() : "";
    const errors: Record<string, string[]> = {};
    if (paymentId === "") errors.payment_id = ["The payment id field is required."];
    if (!/^\d+(\.\d{1,2})?$/.test(amount)) errors.amount = ["The amount must be a number."];
    const refund = Object.keys(errors).length
      ? undefined
      : refundPayment(paymentId, dollarsToCents(amount));
    if (typeof refund === "string") errors.payment_id = [refund];
    const [first] = Object.values(errors);
    if (first) return Response.json({ message: first[0], errors }, { status: 422 });
    return Response.json(refund);
  }

  async function checkout(request: Request, id: string): Promise<Response> {
    const html = (body: string, status = 200) =>
      new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
    const record = lookUp(id);
    if (!record) return html(renderMissingCheckoutPage(), 404);
    if (request.method === "POST" && record.status === "pending") {
      const form = new URLSearchParams(await request.text());
      const action = form.get("action");
      const method = form.get("method") ?? undefined;
      if (action === "pay" || action === "fail") settle(id, action === "pay", method);
      const status = action === "pay" ? "completed" : action === "fail" ? "failed" : "canceled";
      const back = returnUrl(record, status);
      if (back) return new Response(null, { status: 303, headers: { location: back } });
    }
    return html(renderCheckoutPage({
      action: new URL(request.url).pathname,
      amount: record.amount,
      currency: record.currency.toUpperCase(),
      purpose: record.purpose ?? "",
      referenceNumber: record.reference_number ?? "",
      email: record.email ?? "",
      paymentMethods: record.payment_methods,
      status: record.status,
      returnUrl: returnUrl(record, record.status),
    }));
  }

  async function handler(request: Request): Promise<Response> {
    const route = routeAfterBase(request, basePath);
    if (route === null) return message(404, "Not Found");
    if (route.startsWith("v1/")) return await api(request, route.slice(3));
    const page = new RegExp(`^${CHECKOUT_PREFIX}([^/]+)/checkout$`).exec(route);
    if (page && (request.method === "GET" || request.method === "POST")) {
      return await checkout(request, decodeURIComponent(page[1]));
    }
    return message(404, "Not Found");
  }

  return {
    // A "lost" fault carries the call out (a payment request made, a payment refunded), then
    // drops its answer.
    handler: gate.wrap(handler),
    ...gate.levers,
    pay: (id, method) => settle(id, true, method),
    fail: (id, method) => settle(id, false, method),
    expire(id) {
      const record = find(id);
      if (record.status !== "pending") {
        throw new RangeError(`HitPay payment request ${id} is ${record.status}, not pending`);
      }
      expiries.set(id, now());
      return lookUp(id)!;
    },
    payLate: (id, method) => settle(id, true, method, true),
    refund(id, amount) {
      const payment = find(id).payments.find((p) => p.status === "succeeded");
      if (!payment) throw new RangeError(`HitPay payment request ${id} has no succeeded payment`);
      const refund = refundPayment(
        payment.id,
        amount === undefined ? null : dollarsToCents(amount),
      );
      if (typeof refund === "string") throw new RangeError(refund);
      return refund;
    },
    resendWebhook(id) {
      const record = find(id);
      const body = lastWebhook.get(id);
      if (body === undefined) throw new RangeError(`HitPay payment request ${id} sent no webhook`);
      deliver(record, body);
      return record;
    },
    holdWebhooks(hold) {
      holding = hold;
    },
    listRequests: () => [...requests.keys()].map((id) => lookUp(id)!),
    listRefunds: () => [...refunds.values()],
    async awaitWebhooks() {
      while (inFlight.size) await Promise.all(inFlight);
      return [...requests.values()];
    },
  };
}
