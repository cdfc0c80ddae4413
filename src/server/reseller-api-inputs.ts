// The reseller API's requests. These zod schemas validate every /api/v1 request and are
// the source of the OpenAPI document (server/openapi.ts), so the two cannot disagree. Each is
// strict: a field the API does not read is a 400 naming it, since dropping it silently would
// let a client believe it was obeyed (`quantity: 5` placing one order).
import { z } from "zod";

/** An object that refuses fields it does not list, with a message naming them. */
const strict = <S extends z.core.$ZodLooseShape>(shape: S, where: "field" | "parameter") =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown ${where}${issue.keys.length > 1 ? "s" : ""}: ${
          issue.keys.map((k) => k.slice(0, 100)).join(", ")
        }`
        : undefined,
  });
import { RESELLER_ORDER_STATUSES } from "../shared/order-types.ts";
import { WebhookUrlInput } from "./webhook-inputs.ts";

/** A string or number, trimmed, 1 to `max` characters and not blank, as the document states. */
const text = (label: string, max: number) =>
  z.union([
    z.string().max(max).regex(/\S/, `${label} is required`),
    z.number(),
  ]).transform((v) => String(v).trim()).pipe(z.string().min(1, `${label} is required`));
const optionalText = (max: number) =>
  z.union([z.string().max(max), z.number()]).transform((v) => String(v).trim()).default("");

const GameId = z.uuid({ error: "gameId must be a game's id from GET /api/v1/games" })
  .describe("A game's id, from GET /api/v1/games");

const UserId = text("userid", 64).describe(
  "The player's user id: 1 to 64 characters, not blank (a number is taken as its digits)",
);
const ServerId = optionalText(64).describe(
  "The player's server or zone id, up to 64 characters: required (400 without it) when the game's `requiresServerID` is true, else ignored",
);

const CharacterName = optionalText(64).describe(
  "The character name, up to 64 characters, for games whose `requiresCharacterName` is true",
);

/** POST /api/v1/verify. */
export const V1VerifyInput = strict({
  gameId: GameId,
  userid: UserId,
  serverid: ServerId,
  characterName: CharacterName,
}, "field");

/** POST /api/v1/orders. */
export const V1OrderInput = strict({
  gameId: GameId,
  item: text("item", 200).describe("The item's `key`, from GET /api/v1/games"),
  userid: UserId,
  serverid: ServerId,
  characterName: CharacterName,
  userName: optionalText(200).describe(
    "The player's name, as verify returned it; kept on the order",
  ),
  package: z.enum(["mlbb", "mlbb_special", "mlbb_global"]).optional()
    .describe("Mobile Legends only: the package verify chose; refused if it changed since"),
  expectedPrice: z.number().finite().positive().max(1_000_000).optional()
    .describe(
      "The price you expect, in dollars with at most two decimal places (the item's `price`); a different current price is refused (409) and nothing is charged",
    ),
}, "field");

const Limit = z.coerce.number().int().min(1).max(100).default(50)
  .describe("How many to return, 1 to 100");
const Cursor = z.string().max(200).optional()
  .describe("The nextCursor of the previous page");

/** GET /api/v1/orders. */
export const V1OrdersQuery = strict({
  status: z.enum(RESELLER_ORDER_STATUSES).optional().describe("Only orders in this status"),
  from: z.iso.date().optional().describe(
    "Only orders placed on or after this day (UTC); not after `to` (400)",
  ),
  to: z.iso.date().optional().describe(
    "Only orders placed on or before this day (UTC); not before `from` (400)",
  ),
  cursor: Cursor,
  limit: Limit,
}, "parameter").refine((q) => !q.from || !q.to || q.from <= q.to, {
  // An empty page would read as "no orders then": a reversed range is the client's mistake.
  message: "must not be after to",
  path: ["from"],
});

/** GET /api/v1/balance/history. */
export const V1HistoryQuery = strict({ cursor: Cursor, limit: Limit }, "parameter");

/** PUT /api/v1/webhook: the portal's body, its URL rules stated for the document. */
export const V1WebhookInput = strict({
  url: WebhookUrlInput.shape.url.meta({
    format: "uri",
    description:
      "Where order events are POSTed: an https URL (http also in the demo) of a public host, without a user name or password, up to 2000 characters",
  }),
}, "field");
