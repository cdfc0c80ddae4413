// The reseller API's requests (issue 11). These zod schemas validate every /api/v1 request and are
// the source of the OpenAPI document (server/openapi.ts), so the two cannot disagree.
import { z } from "zod";
import { WebhookUrlInput } from "./webhook-inputs.ts";

const text = (label: string, max: number) =>
  z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(
    z.string().min(1, `${label} is required`).max(max),
  );
const optionalText = (max: number) =>
  z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(z.string().max(max))
    .default("");

const GameId = z.uuid({ error: "gameId must be a game's id from GET /api/v1/games" })
  .describe("A game's id, from GET /api/v1/games");

/** POST /api/v1/verify. */
export const V1VerifyInput = z.object({
  gameId: GameId,
  userid: text("userid", 64).describe("The player's user id"),
  serverid: optionalText(64).describe("The player's server or zone id, when the game has one"),
  characterName: optionalText(64).describe("The character name, for games that ask for it"),
});

/** POST /api/v1/orders. */
export const V1OrderInput = z.object({
  gameId: GameId,
  item: text("item", 200).describe("The item's key, from GET /api/v1/games"),
  userid: text("userid", 64).describe("The player's user id"),
  serverid: optionalText(64).describe("The player's server or zone id, when the game has one"),
  userName: optionalText(200).describe("The player's name, as verify returned it"),
  package: z.enum(["mlbb", "mlbb_special", "mlbb_global"]).optional()
    .describe("Mobile Legends only: the package verify chose; refused if it changed since"),
  expectedPrice: z.number().finite().positive().max(1_000_000).optional()
    .describe("The price in dollars you expect; a different current price is refused (409)"),
});

export const ORDER_STATUSES = ["new", "pending", "successful", "error", "refunded"] as const;

const Limit = z.coerce.number().int().min(1).max(100).default(50)
  .describe("How many to return, 1 to 100");
const Cursor = z.string().max(200).optional()
  .describe("The nextCursor of the previous page");

/** GET /api/v1/orders. */
export const V1OrdersQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional().describe("Only orders in this status"),
  from: z.iso.date().optional().describe("Only orders placed on or after this day (UTC)"),
  to: z.iso.date().optional().describe("Only orders placed on or before this day (UTC)"),
  cursor: Cursor,
  limit: Limit,
});

/** GET /api/v1/balance/history. */
export const V1HistoryQuery = z.object({ cursor: Cursor, limit: Limit });

/** A parameter or body the document describes; `schema` is what validates it. */
export interface V1Operation {
  method: "get" | "post" | "put";
  path: string;
  summary: string;
  description: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  pathParams?: Record<string, string>;
  idempotent?: boolean;
  /** Status of a success, and what it carries. */
  success: { status: number; description: string };
  /** Error codes this route may answer besides the common ones. */
  errors?: string[];
  example: string;
}

/** Every /api/v1 route a key may call: the reference page and the OpenAPI document list these. */
export const V1_OPERATIONS: V1Operation[] = [
  {
    method: "get",
    path: "/api/v1/games",
    summary: "List games and items with your prices",
    description:
      "Every game you can order, its packages (Mobile Legends) and items, priced for your account.",
    success: { status: 200, description: "{ games: [...] }" },
    example: `curl -H "Authorization: Bearer $KEY" $BASE/api/v1/games`,
  },
  {
    method: "post",
    path: "/api/v1/verify",
    summary: "Verify a player account",
    description:
      "Checks the account with the game's supplier, as the portal's Verify does; for Mobile Legends it also chooses the package the order will use.",
    body: V1VerifyInput,
    success: { status: 200, description: "{ gameId, result }: the supplier's answer" },
    errors: ["upstream_error"],
    example:
      `curl -X POST -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" -d '{"gameId":"<game id>","userid":"5551234"}' $BASE/api/v1/verify`,
  },
  {
    method: "post",
    path: "/api/v1/orders",
    summary: "Place an order",
    description:
      "Debits your balance and sends the order to the supplier. Requires an Idempotency-Key header: repeating a request with the same key returns the first answer and never orders twice.",
    body: V1OrderInput,
    idempotent: true,
    success: { status: 201, description: "{ order }" },
    errors: ["insufficient_balance", "conflict"],
    example:
      `curl -X POST -H "Authorization: Bearer $KEY" -H "Idempotency-Key: $(uuidgen)" -H "Content-Type: application/json" -d '{"gameId":"<game id>","item":"<item key>","userid":"5551234"}' $BASE/api/v1/orders`,
  },
  {
    method: "get",
    path: "/api/v1/orders",
    summary: "List your orders",
    description: "Newest first, a page at a time; pass nextCursor as cursor for the next page.",
    query: V1OrdersQuery,
    success: { status: 200, description: "{ orders: [...], nextCursor }" },
    example:
      `curl -H "Authorization: Bearer $KEY" "$BASE/api/v1/orders?status=successful&limit=20"`,
  },
  {
    method: "get",
    path: "/api/v1/orders/{id}",
    summary: "Get one order",
    description: "One of your orders by its id; another reseller's order is not found.",
    pathParams: { id: "The order's id" },
    success: { status: 200, description: "{ order }" },
    example: `curl -H "Authorization: Bearer $KEY" $BASE/api/v1/orders/<order id>`,
  },
  {
    method: "get",
    path: "/api/v1/balance",
    summary: "Get your balance",
    description: "Your current balance in dollars.",
    success: { status: 200, description: "{ balance }" },
    example: `curl -H "Authorization: Bearer $KEY" $BASE/api/v1/balance`,
  },
  {
    method: "get",
    path: "/api/v1/balance/history",
    summary: "List your balance history",
    description: "Every balance movement, newest first, a page at a time.",
    query: V1HistoryQuery,
    success: { status: 200, description: "{ entries: [...], nextCursor }" },
    example: `curl -H "Authorization: Bearer $KEY" $BASE/api/v1/balance/history`,
  },
  {
    method: "get",
    path: "/api/v1/webhook",
    summary: "Get your webhook URL",
    description:
      "The callback URL order events are sent to (null when none is set); never the secret.",
    success: { status: 200, description: "{ url, updatedAt }" },
    example: `curl -H "Authorization: Bearer $KEY" $BASE/api/v1/webhook`,
  },
  {
    method: "put",
    path: "/api/v1/webhook",
    summary: "Set your webhook URL",
    description:
      "Order events (successful, error, refunded) are POSTed here, signed with HMAC-SHA256 in the X-TopUp-Signature header. The first URL you set answers with the signing secret, shown this once; a later change keeps it.",
    body: WebhookUrlInput,
    success: { status: 200, description: "{ url, secret? }" },
    example:
      `curl -X PUT -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" -d '{"url":"https://shop.example/hooks/topup"}' $BASE/api/v1/webhook`,
  },
  {
    method: "post",
    path: "/api/v1/webhook/roll_secret",
    summary: "Replace your webhook signing secret",
    description:
      "Makes a new signing secret and answers with it, shown this once; the old one stops signing at once.",
    success: { status: 200, description: "{ url, secret }" },
    example: `curl -X POST -H "Authorization: Bearer $KEY" $BASE/api/v1/webhook/roll_secret`,
  },
];
