// HitPay payment-request client. Wire format: shared/reference/external-apis.md §3. The key
// travels in X-BUSINESS-API-KEY; amounts go out as "12.34" strings and come back formatted
// ("900,000.00"), so both directions pass through integer cents and nothing here uses floats.

import { z } from "zod";
import type { Config } from "../../config.ts";
import { centsToDecimalString, dollarsToCents } from "../../domain/money.ts";
import {
  describeIssues,
  fetchJson,
  type SupplierErrorKind,
  type SupplierResult,
} from "../fetch-json.ts";
import { internalBaseUrl } from "../suppliers.ts";

/** What the app asks HitPay to collect. */
export interface PaymentRequestInput {
  /** Sent to HitPay as a "12.34" string. */
  amountCents: number;
  currency: "SGD";
  /** Our order id. */
  referenceNumber: string;
  name?: string;
  email?: string;
  phone?: string;
  purpose?: string;
  /** Absolute; HitPay appends ?reference=<request id>&status=... */
  redirectUrl: string;
  /** Absolute; the v1 per-request webhook. */
  webhookUrl: string;
  /** HitPay codes (payment-methods.ts), e.g. ["paynow_online","grabpay_direct"]. */
  paymentMethods: readonly string[];
  /** Minutes until HitPay stops taking payment on the request (sent as `expires_after`). */
  expiresAfterMinutes?: number;
}

/**
 * HitPay's smallest charge: its OpenAPI gives `minimum: 0.3` for a payment request's `amount`.
 */
export const HITPAY_MINIMUM_AMOUNT_CENTS = 30;

/** A payment request as HitPay reports it. */
export interface PaymentRequest {
  id: string;
  /** The hosted checkout page the buyer is sent to. */
  url: string;
  /** HitPay's payment-request status: "pending", "completed" (paid), … (statuses.ts). */
  status: string;
  amountCents: number;
  /** Upper case, e.g. "SGD". */
  currency: string;
  referenceNumber: string;
}

/** A payment request with the payments made against it. */
export interface PaymentRequestStatus extends PaymentRequest {
  /** `status` is HitPay's payment status: "succeeded", "failed", … (statuses.ts). */
  payments: { id: string; status: string; amountCents: number; currency: string }[];
}

/** A refund as HitPay reports it (POST /v1/refund, GET /v1/refund/{id}). */
export interface Refund {
  id: string;
  /** The payment refunded (a payment's id, never its request's). */
  paymentId: string;
  /** What this refund gave back. */
  amountCents: number;
  /** HitPay's word: "succeeded" in its examples; anything else is not (yet) done. */
  status: string;
  /** Upper case, e.g. "SGD". */
  currency: string;
}

/** What the app asks HitPay to refund. */
export interface RefundInput {
  /** The payment's id (`payments[].id`, or the v1 webhook's `payment_id`). */
  paymentId: string;
  /** Sent to HitPay as a JSON number of dollars. */
  amountCents: number;
}

/** The HitPay calls the app makes. Every method throws HitPayError when it gets no usable answer. */
export interface HitPayClient {
  createPaymentRequest(input: PaymentRequestInput): Promise<PaymentRequest>;
  getPaymentRequest(id: string): Promise<PaymentRequestStatus>;
  createRefund(input: RefundInput): Promise<Refund>;
  getRefund(id: string): Promise<Refund>;
}

/**
 * A HitPay call that did not produce a usable answer. `kind` says why: no answer in time, no
 * connection, an HTTP error (HitPay's `message` included), or a body that is not HitPay's.
 */
export class HitPayError extends Error {
  override name = "HitPayError";
  constructor(
    readonly kind: SupplierErrorKind,
    message: string,
    /** The HTTP status, when HitPay answered with an error. */
    readonly status?: number,
    /** HitPay's own `message`, when its error answer had one. */
    readonly hitpayMessage?: string,
  ) {
    super(message);
  }
}

/**
 * HitPay answered and said no (a 4xx, its 422 with a `message`): the request was looked at and
 * refused, so sending it again as it is changes nothing. A timeout, a 5xx, a rate limit's 429 or
 * garbage is no such answer: the request may or may not have been carried out.
 */
export function isHitPayRefusal(error: unknown): error is HitPayError {
  return error instanceof HitPayError && error.kind === "http" && error.status !== undefined &&
    error.status >= 400 && error.status <= 499 && error.status !== 408 && error.status !== 429;
}

const text = z.union([z.string(), z.number()]).transform(String);

/** "900,000.00", "12.34" or 12.34 as integer cents; the thousands comma is HitPay's formatting. */
const amount = text.transform((value, ctx) => {
  try {
    return dollarsToCents(value.trim().replaceAll(",", ""));
  } catch (error) {
    ctx.addIssue({ code: "custom", message: (error as Error).message });
    return z.NEVER;
  }
});

const currency = z.string().min(1).transform((value) => value.toUpperCase());

const RequestSchema = z.object({
  id: z.string().min(1),
  url: z.url(),
  status: z.string().min(1),
  amount,
  currency,
  reference_number: text.nullish().transform((value) => value ?? ""),
});

const StatusSchema = RequestSchema.extend({
  payments: z.array(z.object({
    id: z.string().min(1),
    status: z.string().min(1),
    amount,
    currency,
  })).nullish().transform((value) => value ?? []),
});

const RefundSchema = z.object({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  amount_refunded: amount,
  status: z.string().min(1),
  currency,
});

const ErrorSchema = z.object({ message: z.string() });

function readRefund(json: z.output<typeof RefundSchema>): Refund {
  return {
    id: json.id,
    paymentId: json.payment_id,
    amountCents: json.amount_refunded,
    status: json.status,
    currency: json.currency,
  };
}

function readRequest(json: z.output<typeof RequestSchema>): PaymentRequest {
  return {
    id: json.id,
    url: json.url,
    status: json.status,
    amountCents: json.amount,
    currency: json.currency,
    referenceNumber: json.reference_number,
  };
}

/** Creates a HitPay client; no call is made until a method is used. */
export function createHitPayClient(
  config: { baseUrl: string; apiKey: string; timeoutMs: number },
): HitPayClient {
  const base = config.baseUrl.replace(/\/+$/, "");
  const headers = {
    "X-BUSINESS-API-KEY": config.apiKey,
    "X-Requested-With": "XMLHttpRequest",
    "Accept": "application/json",
  };

  /** One call: the JSON answer of a 2xx parsed with `schema`, anything else thrown. */
  async function call<S extends z.ZodType>(
    what: string,
    answer: Promise<SupplierResult<{ status: number; json: unknown }>>,
    schema: S,
  ): Promise<z.output<S>> {
    const result = await answer;
    if (!result.ok) {
      const status = result.kind === "http" ? Number(result.code) : undefined;
      throw new HitPayError(result.kind, `HitPay ${what}: ${result.message}`, status);
    }
    const { status, json } = result.value;
    if (status < 200 || status > 299) {
      const refusal = ErrorSchema.safeParse(json);
      const message = refusal.success ? refusal.data.message : `HTTP ${status}`;
      throw new HitPayError(
        "http",
        `HitPay ${what}: ${message} (HTTP ${status})`,
        status,
        refusal.success ? refusal.data.message : undefined,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new HitPayError("malformed", `HitPay ${what}: ${describeIssues(parsed.error)}`);
    }
    return parsed.data;
  }

  return {
    async createPaymentRequest(input) {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
        throw new RangeError(`amountCents must be a positive integer, got ${input.amountCents}`);
      }
      const body = {
        amount: centsToDecimalString(input.amountCents),
        currency: input.currency,
        reference_number: input.referenceNumber,
        redirect_url: input.redirectUrl,
        webhook: input.webhookUrl,
        payment_methods: input.paymentMethods,
        // HitPay's OpenAPI: `expires_after`, e.g. "30 mins" ("mins", "hours" or "days").
        ...(input.expiresAfterMinutes
          ? { expires_after: `${input.expiresAfterMinutes} mins` }
          : {}),
        ...(input.name ? { name: input.name } : {}),
        ...(input.email ? { email: input.email } : {}),
        ...(input.phone ? { phone: input.phone } : {}),
        ...(input.purpose ? { purpose: input.purpose } : {}),
      };
      const created = readRequest(
        await call(
          "create payment request",
          fetchJson(
            `${base}/payment-requests`,
            {
              method: "POST",
              headers: { ...headers, "Content-Type": "application/json" },
              body: JSON.stringify(body),
            },
            config.timeoutMs,
            { vendor: "hitpay", endpoint: "create-payment-request" },
          ),
          RequestSchema,
        ),
      );
      // A request for another sum or order must never be shown to a buyer as this one.
      if (
        created.amountCents !== input.amountCents || created.currency !== input.currency ||
        created.referenceNumber !== input.referenceNumber
      ) {
        throw new HitPayError(
          "malformed",
          `HitPay create payment request: answered ${created.amountCents} ${created.currency} ` +
            `for "${created.referenceNumber}", asked ${input.amountCents} ${input.currency} ` +
            `for "${input.referenceNumber}"`,
        );
      }
      return created;
    },

    async getPaymentRequest(id) {
      const json = await call(
        "get payment request",
        fetchJson(
          `${base}/payment-requests/${encodeURIComponent(id)}`,
          { method: "GET", headers },
          config.timeoutMs,
          { vendor: "hitpay", endpoint: "get-payment-request" },
        ),
        StatusSchema,
      );
      return {
        ...readRequest(json),
        payments: json.payments.map((p) => ({
          id: p.id,
          status: p.status,
          amountCents: p.amount,
          currency: p.currency,
        })),
      };
    },

    async createRefund(input) {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
        throw new RangeError(`amountCents must be a positive integer, got ${input.amountCents}`);
      }
      // HitPay's OpenAPI types `amount` as a number: the JSON number is written from the exact
      // decimal text ("12.34"), so no float ever holds the sum.
      const body = `{"payment_id":${JSON.stringify(input.paymentId)},"amount":${
        centsToDecimalString(input.amountCents)
      }}`;
      const refund = readRefund(
        await call(
          "refund",
          fetchJson(
            `${base}/refund`,
            { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body },
            config.timeoutMs,
            { vendor: "hitpay", endpoint: "refund" },
          ),
          RefundSchema,
        ),
      );
      // A refund of another payment or sum must never be recorded as this one.
      if (refund.paymentId !== input.paymentId || refund.amountCents !== input.amountCents) {
        throw new HitPayError(
          "malformed",
          `HitPay refund: answered ${refund.amountCents} of payment "${refund.paymentId}", ` +
            `asked ${input.amountCents} of "${input.paymentId}"`,
        );
      }
      return refund;
    },

    async getRefund(id) {
      return readRefund(
        await call(
          "get refund",
          fetchJson(
            `${base}/refund/${encodeURIComponent(id)}`,
            { method: "GET", headers },
            config.timeoutMs,
            { vendor: "hitpay", endpoint: "get-refund" },
          ),
          RefundSchema,
        ),
      );
    },
  };
}

/** Where the app mounts the HitPay simulator when HITPAY_MODE is simulator. */
export const HITPAY_SIMULATOR_PATH = "/__sim/hitpay";

const CLIENT_KEY = Symbol.for("topup.hitpay");

/** A client of HitPay at `baseUrl` with the configured key. */
function hitPayClientAt(config: Config, baseUrl: string): HitPayClient {
  return createHitPayClient({
    baseUrl,
    apiKey: config.hitpay.apiKey,
    timeoutMs: config.supplierTimeoutMs,
  });
}

/** The client of live HitPay at config.hitpay.baseUrl (production's, or the sandbox). */
export function createLiveHitPayClient(config: Config): HitPayClient {
  return hitPayClientAt(config, config.hitpay.baseUrl);
}

/** The process-wide client: live HitPay, or the simulator mounted on this server. */
export function getHitPayClient(config: Config): HitPayClient {
  const g = globalThis as { [CLIENT_KEY]?: HitPayClient };
  g[CLIENT_KEY] ??= config.hitpay.mode === "live"
    ? createLiveHitPayClient(config)
    : hitPayClientAt(config, `${internalBaseUrl()}${HITPAY_SIMULATOR_PATH}/v1`);
  return g[CLIENT_KEY];
}
