// The reseller API's requests. These zod schemas validate every /api/v1 request and are
// the source of the OpenAPI document (server/openapi.ts), so the two cannot disagree.
import { z } from "zod";
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
export const V1VerifyInput = z.object({
  gameId: GameId,
  userid: UserId,
  serverid: ServerId,
  characterName: CharacterName,
});

/** POST /api/v1/orders. */
export const V1OrderInput = z.object({
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
});

const Limit = z.coerce.number().int().min(1).max(100).default(50)
  .describe("How many to return, 1 to 100");
const Cursor = z.string().max(200).optional()
  .describe("The nextCursor of the previous page");

/** GET /api/v1/orders. */
export const V1OrdersQuery = z.object({
  status: z.enum(RESELLER_ORDER_STATUSES).optional().describe("Only orders in this status"),
  from: z.iso.date().optional().describe("Only orders placed on or after this day (UTC)"),
  to: z.iso.date().optional().describe("Only orders placed on or before this day (UTC)"),
  cursor: Cursor,
  limit: Limit,
});

/** GET /api/v1/balance/history. */
export const V1HistoryQuery = z.object({ cursor: Cursor, limit: Limit });

/** PUT /api/v1/webhook: the portal's body, its URL rules stated for the document. */
export const V1WebhookInput = z.object({
  url: WebhookUrlInput.shape.url.meta({
    format: "uri",
    description:
      "Where order events are POSTed: an https URL (http also in the demo) of a public host, without a user name or password, up to 2000 characters",
  }),
});
