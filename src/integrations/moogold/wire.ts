// MooGold's wire format, shared by the client and the simulator: request signing and the shapes
// of the answers (external-apis.md §1). Answers are read leniently where MooGold is known to vary
// (booleans as "true", ids as strings, PHP's [] for an empty map) and strictly everywhere else.

import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";
import { z } from "zod";
import { decimalText } from "../fetch-json.ts";

/** The server_list texts that mean "this product has no server list". */
export const MOOGOLD_NO_SERVER_TEXTS = ["Product has no server list", "Enter from Website"];

/**
 * MooGold's refusal of a request whose `auth` signature does not match: err_code "109", "Invalid
 * Signature." (MooGold's api-doc.yaml, error_response_109, as copied in
 * Wanfunzy/Wanfunzy:api-doc.yaml@dfda30f). An authentication refusal: nothing was carried out.
 */
export const MOOGOLD_INVALID_SIGNATURE = { code: "109", message: "Invalid Signature." } as const;

/** The `auth` header: lowercase hex HMAC-SHA256(secret, body + timestamp + path). */
export function signMoogoldRequest(
  secretKey: string,
  body: string,
  timestamp: string,
  path: string,
): string {
  return createHmac("sha256", secretKey).update(`${body}${timestamp}${path}`).digest("hex");
}

/** The `Authorization` header: Basic base64(partnerId:secretKey). */
export function moogoldBasicAuth(partnerId: string, secretKey: string): string {
  return `Basic ${Buffer.from(`${partnerId}:${secretKey}`, "utf8").toString("base64")}`;
}

const flag = z.union([z.boolean(), z.enum(["true", "false"])])
  .transform((v) => v === true || v === "true");
// Ids arrive as numbers or digit strings; z.coerce would also turn null or "" into 0.
const integer = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d+$/).transform(Number),
]);
const text = z.union([z.string(), z.number()]).transform(String);

/** product/list_product: `[{ID, post_title}]`. */
export const ProductListSchema = z.array(z.object({ ID: integer, post_title: z.string() }));

/** product/product_detail. */
export const ProductDetailSchema = z.object({
  Product_Name: z.string(),
  Image_URL: z.string().default(""),
  Variation: z.array(z.object({
    variation_name: z.string(),
    variation_id: integer,
    variation_price: decimalText,
  })),
  fields: z.array(z.string()),
});

/** product/server_list: a map, or a text meaning "none" (null). */
export const ServerListSchema = z.union([
  z.record(z.string(), text),
  // PHP encodes an empty associative array as [], so an empty list is an empty map.
  z.array(z.never()).transform(() => ({})),
  z.enum(MOOGOLD_NO_SERVER_TEXTS).transform(() => null),
]);

/** product/validate. */
export const ValidateSchema = z.object({
  status: flag,
  message: z.string().default(""),
  username: z.string().nullish(),
});

/** order/create_order; three clients also look for the order id at the top level. */
export const CreateOrderSchema = z.object({
  status: flag,
  message: z.string().default(""),
  account_details: z.object({ order_id: integer }).optional(),
  order_id: integer.optional(),
});

/**
 * order/order_detail and order/order_detail_partner_id, whose date is an object and which may have
 * no `total` (pyMooGoldApi's model of it has none): an order is read without it.
 */
export const OrderSchema = z.object({
  order_id: integer,
  partner_order_id: text.optional(),
  order_status: z.string(),
  date_created: z.union([z.string(), z.object({ date: z.string() }).transform((d) => d.date)]),
  total: decimalText.optional(),
  item: z.array(z.object({
    product: z.string(),
    variation_id: integer,
    quantity: integer,
    price: decimalText,
    player_id: text.default(""),
    server_id: text.default(""),
  })),
});

/** user/balance: the balance is a string. */
export const BalanceSchema = z.object({ currency: z.string(), balance: decimalText });

/** MooGold's error answer. */
export const ErrorBodySchema = z.object({ err_code: text, err_message: text.default("") });

/** WordPress's REST error, e.g. rest_no_route when validate is not enabled for the account. */
export const WordPressErrorSchema = z.object({ code: z.string(), message: z.string() });
