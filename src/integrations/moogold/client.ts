// MooGold ("monkey", "mg") partner API client. Wire format: shared/reference/external-apis.md §1.
// Every call is POST {base}{path} with the path repeated in the body and an HMAC over the exact
// body string, so each body is serialised once and that one string is both signed and sent.

import type { z } from "zod";
import {
  describeIssues,
  failWith,
  inFlightLimit,
  postJson,
  type SupplierOrderStatus,
  type SupplierResult,
} from "../fetch-json.ts";
import {
  BalanceSchema,
  CreateOrderSchema,
  ErrorBodySchema,
  MOOGOLD_INVALID_SIGNATURE,
  moogoldBasicAuth,
  OrderSchema,
  ProductDetailSchema,
  ProductListSchema,
  ServerListSchema,
  signMoogoldRequest,
  ValidateSchema,
  WordPressErrorSchema,
} from "./wire.ts";
import { logger } from "../../observability/log.ts";

/** How to reach and authenticate against MooGold. */
export interface MoogoldClientOptions {
  /** e.g. https://moogold.com/wp-json/v1/api/ (a trailing slash is optional). */
  baseUrl: string;
  partnerId: string;
  secretKey: string;
  /** Upper bound for one call, connect to last body byte. */
  timeoutMs: number;
  /** Calls out at MooGold at once from this client; more wait their turn (default: no cap). */
  maxInFlight?: number;
  /**
   * Whether create_order signs partnerOrderId with the rest of the body (default true) or signs
   * {path, data} and appends partnerOrderId after signing. MooGold's api-doc.yaml (copied in
   * Wanfunzy/Wanfunzy:api-doc.yaml@dfda30f) signs "Payload + Current Timestamp + Path" and puts
   * partnerOrderId in create_order's payload, with no exception for it; the one client that once
   * signed {path, data} (Wanfunzy/Wanfunzy:moogold.js@def02f5) signs exactly what it sends since
   * c7c3a1d. Whichever is set, a 109 refusal is re-signed the other way once (createOrder).
   */
  signPartnerOrderId?: boolean;
}

/** Which create_order signing a client uses, and whether MooGold has accepted it. */
export interface MoogoldSigning {
  /** partnerOrderId is inside the signed body (else {path, data} is signed). */
  partnerOrderIdSigned: boolean;
  /** MooGold accepted a create_order signed this way since this client was made. */
  confirmed: boolean;
}

/** A product in a list_product category. */
export interface MoogoldProductSummary {
  id: number;
  title: string;
}

/** One purchasable variation; `price` is exact decimal text in USD. */
export interface MoogoldVariation {
  id: number;
  name: string;
  price: string;
}

/** product_detail: variations and the field labels the order and validate data must use. */
export interface MoogoldProductDetail {
  name: string;
  imageUrl: string;
  variations: MoogoldVariation[];
  fields: string[];
}

/** product/validate: whether the account exists, and its in-game name when it does. */
export interface MoogoldValidation {
  valid: boolean;
  username: string | null;
  message: string;
}

/** What create_order needs; `fields` are keyed by the labels from product_detail. */
export interface MoogoldCreateOrderInput {
  variationId: number;
  /** 1 = direct top-up, 2 = e-voucher. */
  category: 1 | 2;
  fields: Record<string, string>;
  partnerOrderId: string;
  quantity?: number;
}

/** An accepted order. */
export interface MoogoldCreatedOrder {
  orderId: number;
  message: string;
}

/** One line of an order. */
export interface MoogoldOrderItem {
  product: string;
  variationId: number;
  quantity: number;
  price: string;
  playerId: string;
  serverId: string;
}

/** order_detail / order_detail_partner_id, normalised. */
export interface MoogoldOrder {
  orderId: number;
  partnerOrderId: string | null;
  /** Our status, from mapMoogoldOrderStatus. */
  status: SupplierOrderStatus;
  /** MooGold's own status text, kept for operators. */
  supplierStatus: string;
  dateCreated: string;
  /** The order's total in USD; null when the answer has none (order_detail_partner_id may not). */
  total: string | null;
  items: MoogoldOrderItem[];
}

/** user/balance. */
export interface MoogoldBalance {
  currency: string;
  balance: string;
}

/** The MooGold API, one method per endpoint used by the app. */
export interface MoogoldClient {
  listProducts(categoryId: number): Promise<SupplierResult<MoogoldProductSummary[]>>;
  productDetail(productId: number): Promise<SupplierResult<MoogoldProductDetail>>;
  /** A label → value map, or null when the product takes no server from a list. */
  serverList(productId: number): Promise<SupplierResult<Record<string, string> | null>>;
  /** `fields` are keyed by the labels from product_detail, e.g. {"User ID": …, "Server": …}. */
  validate(
    productId: number,
    fields: Record<string, string>,
  ): Promise<SupplierResult<MoogoldValidation>>;
  createOrder(input: MoogoldCreateOrderInput): Promise<SupplierResult<MoogoldCreatedOrder>>;
  orderDetail(orderId: number): Promise<SupplierResult<MoogoldOrder>>;
  orderDetailByPartnerId(partnerOrderId: string): Promise<SupplierResult<MoogoldOrder>>;
  balance(): Promise<SupplierResult<MoogoldBalance>>;
  /** The create_order signing this client uses now (configured, or learned from MooGold). */
  createOrderSigning(): MoogoldSigning;
}

/** Maps MooGold's order_status to ours; an unknown status stays pending so it is never refunded. */
export function mapMoogoldOrderStatus(status: string): SupplierOrderStatus {
  switch (status.trim().toLowerCase()) {
    case "completed":
      return "successful";
    case "refunded":
    case "incorrect-details":
      return "failed";
    default:
      return "pending";
  }
}

/** Creates a MooGold client; no call is made until a method is used. */
export function createMoogoldClient(options: MoogoldClientOptions): MoogoldClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const limited = inFlightLimit(options.maxInFlight ?? Infinity);
  const signing: MoogoldSigning = {
    partnerOrderIdSigned: options.signPartnerOrderId ?? true,
    confirmed: false,
  };
  const authorization = moogoldBasicAuth(options.partnerId, options.secretKey);

  /** Signs {path, ...fields}; `unsigned` fields are added to the sent body after signing. */
  async function call<S extends z.ZodType>(
    path: string,
    fields: Record<string, unknown>,
    schema: S,
    unsigned: Record<string, unknown> = {},
  ): Promise<SupplierResult<z.output<S>>> {
    const signedBody = JSON.stringify({ path, ...fields });
    const body = Object.keys(unsigned).length === 0
      ? signedBody
      : JSON.stringify({ path, ...fields, ...unsigned });
    // Signed when it goes out, after any wait for a free call, so its timestamp is fresh.
    const response = await limited(() => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      return postJson(
        `${base}/${path}`,
        body,
        {
          "Content-Type": "application/json",
          // Without Accept, MooGold can answer an HTML 404 instead of JSON.
          "Accept": "application/json",
          "timestamp": timestamp,
          "auth": signMoogoldRequest(options.secretKey, signedBody, timestamp, path),
          "Authorization": authorization,
        },
        options.timeoutMs,
        {
          vendor: "moogold",
          endpoint: path,
          refused: (answer) => ErrorBodySchema.safeParse(answer).success,
        },
      );
    });
    if (!response.ok) return response;
    const { status, json } = response.value;
    // MooGold reports errors in the body; the HTTP status of an error is not documented.
    const supplierError = ErrorBodySchema.safeParse(json);
    if (supplierError.success) {
      const { err_code, err_message } = supplierError.data;
      return failWith("supplier", err_message || `MooGold error ${err_code}`, err_code);
    }
    const wpError = WordPressErrorSchema.safeParse(json);
    if (wpError.success && (status >= 400 || wpError.data.code.startsWith("rest_"))) {
      return failWith("supplier", wpError.data.message, wpError.data.code);
    }
    if (status < 200 || status > 299) {
      return failWith("http", `HTTP ${status} from MooGold ${path}`, String(status));
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      return failWith("malformed", `MooGold ${path}: ${describeIssues(parsed.error)}`);
    }
    return { ok: true, value: parsed.data };
  }

  function toOrder(order: z.output<typeof OrderSchema>): MoogoldOrder {
    return {
      orderId: order.order_id,
      partnerOrderId: order.partner_order_id ?? null,
      status: mapMoogoldOrderStatus(order.order_status),
      supplierStatus: order.order_status,
      dateCreated: order.date_created,
      total: order.total ?? null,
      items: order.item.map((item) => ({
        product: item.product,
        variationId: item.variation_id,
        quantity: item.quantity,
        price: item.price,
        playerId: item.player_id,
        serverId: item.server_id,
      })),
    };
  }

  /** One create_order request, with partnerOrderId inside the signed body or appended after. */
  function sendCreateOrder(
    data: Record<string, unknown>,
    partnerOrderId: string,
    partnerOrderIdSigned: boolean,
  ) {
    const partner = { partnerOrderId };
    return partnerOrderIdSigned
      ? call("order/create_order", { data, ...partner }, CreateOrderSchema)
      : call("order/create_order", { data }, CreateOrderSchema, partner);
  }

  /**
   * Sends create_order signed the way this client uses now and, if MooGold refuses the signature
   * itself (109: an authentication refusal, so no order exists), once more signed the other way;
   * when MooGold takes that order, the client signs that way from then on. No other refusal is
   * ever sent again: after it the order may exist.
   */
  async function createOrderSigned(data: Record<string, unknown>, partnerOrderId: string) {
    const tried = signing.partnerOrderIdSigned;
    const first = await sendCreateOrder(data, partnerOrderId, tried);
    if (!isSignatureRefusal(first)) {
      if (first.ok && signing.partnerOrderIdSigned === tried) signing.confirmed = true;
      return first;
    }
    const second = await sendCreateOrder(data, partnerOrderId, !tried);
    if (second.ok && signing.partnerOrderIdSigned === tried) {
      signing.partnerOrderIdSigned = !tried;
      signing.confirmed = true;
      logger().warn({
        msg: "moogold signing",
        detail: `MooGold refused create_order signed ${describeSigning(tried)} (109) and ` +
          `accepted it signed ${describeSigning(!tried)}: this process signs that way from now on`,
      });
    }
    return second;
  }

  return {
    async listProducts(categoryId) {
      const result = await call(
        "product/list_product",
        { category_id: categoryId },
        ProductListSchema,
      );
      if (!result.ok) return result;
      return { ok: true, value: result.value.map((p) => ({ id: p.ID, title: p.post_title })) };
    },

    async productDetail(productId) {
      const result = await call(
        "product/product_detail",
        { product_id: productId },
        ProductDetailSchema,
      );
      if (!result.ok) return result;
      const detail = result.value;
      return {
        ok: true,
        value: {
          name: detail.Product_Name,
          imageUrl: detail.Image_URL,
          variations: detail.Variation.map((v) => ({
            id: v.variation_id,
            name: v.variation_name,
            price: v.variation_price,
          })),
          fields: detail.fields,
        },
      };
    },

    serverList(productId) {
      return call("product/server_list", { product_id: productId }, ServerListSchema);
    },

    async validate(productId, fields) {
      const data = { "product-id": productId, ...fields };
      const result = await call("product/validate", { data }, ValidateSchema);
      if (!result.ok) return result;
      const { status, message, username } = result.value;
      return { ok: true, value: { valid: status, username: username ?? null, message } };
    },

    async createOrder(input) {
      const data = {
        category: input.category,
        "product-id": input.variationId,
        quantity: input.quantity ?? 1,
        ...input.fields,
      };
      const result = await createOrderSigned(data, input.partnerOrderId);
      if (!result.ok) return result;
      const { status, message, account_details, order_id } = result.value;
      if (!status) return failWith("supplier", message || "MooGold refused the order");
      const orderId = account_details?.order_id ?? order_id;
      if (orderId === undefined) {
        return failWith("malformed", "MooGold order/create_order: no order_id");
      }
      return { ok: true, value: { orderId, message } };
    },

    async orderDetail(orderId) {
      const result = await call("order/order_detail", { order_id: orderId }, OrderSchema);
      return result.ok ? { ok: true, value: toOrder(result.value) } : result;
    },

    async orderDetailByPartnerId(partnerOrderId) {
      const result = await call(
        "order/order_detail_partner_id",
        { partner_order_id: partnerOrderId },
        OrderSchema,
      );
      return result.ok ? { ok: true, value: toOrder(result.value) } : result;
    },

    balance() {
      return call("user/balance", {}, BalanceSchema);
    },

    createOrderSigning() {
      return { ...signing };
    },
  };
}

/** MooGold refused the request's signature (109), before reading anything else of it. */
function isSignatureRefusal(result: SupplierResult<unknown>): boolean {
  return !result.ok && result.kind === "supplier" && result.code === MOOGOLD_INVALID_SIGNATURE.code;
}

/** A create_order signing in an operator's words. */
export function describeSigning(partnerOrderIdSigned: boolean): string {
  return partnerOrderIdSigned ? "with partnerOrderId" : "without partnerOrderId ({path, data})";
}
