// The reseller API's answers: one zod schema per success body, the source of the
// response schemas of the OpenAPI document (server/openapi.ts). Each is held equal to the DTO type
// the domain answers with (`AnswersMatchTheDomain` below fails `deno check` when the two part), and the
// contract test (tests/api/reseller-api-contract_test.ts) validates real answers against them.
import { z } from "zod";
import type { ApiGame, ApiVerification } from "../domain/resellers/api.ts";
import type { MlbbVerification, PackageChoice } from "../domain/orders/verification.ts";
import type { ElitediasVerification } from "../integrations/elitedias/port.ts";
import type { MoogoldValidateAnswer } from "../integrations/moogold/port.ts";
import {
  BALANCE_TYPE_LABELS,
  type BalanceEntryDto,
  RESELLER_ORDER_STATUSES,
  type ResellerOrderDto,
} from "../shared/order-types.ts";
import type { ResellerItemDto } from "../shared/game-types.ts";
import type { WebhookSavedDto, WebhookSettingsDto } from "../shared/webhook-types.ts";
import { MLBB_PACKAGES } from "../domain/orders/verification.ts";

/** An amount of money: dollars as a JSON number with at most two decimal places. */
export const Dollars = (what: string) =>
  z.number().describe(
    `${what}, in dollars: a decimal number with at most two decimal places (12.5 is $12.50)`,
  );

const Time = (what: string) => z.iso.datetime().describe(`${what} (ISO 8601, UTC)`);

const ResellerItem = z.object({
  key: z.string().describe("The item's key within its game or package: the `item` of an order"),
  name: z.string().describe("The item's name, as your portal shows it"),
  nameConsumer: z.object({ header: z.string(), subheader: z.string() })
    .describe("The item's name as a storefront shows it, in two lines"),
  price: Dollars("Your price for the item, your markup and discounts applied"),
  image: z.string().describe("The item's image URL, or empty"),
  isDoubleRecharge: z.boolean().describe("The game's double-recharge offer applies"),
});

const Game = z.object({
  id: z.uuid().describe("The game's id: the `gameId` of verify and orders"),
  name: z.string(),
  requiresServerID: z.boolean()
    .describe("Verify and orders need a `serverid` for this game (400 without one)"),
  requiresCharacterName: z.boolean()
    .describe("Verify needs a `characterName` for this game"),
  servers: z.record(z.string(), z.string())
    .describe("For games with a fixed list of servers: the `serverid` to send, by server name"),
  isOutOfStock: z.boolean().describe("Orders for the game are refused (409) while set"),
  packages: z.array(z.object({
    name: z.string().describe("mlbb, mlbb_special or mlbb_global"),
    isOutOfStock: z.boolean(),
    items: z.array(ResellerItem),
  })).describe("Mobile Legends only: its packages; verify tells which one an account gets"),
  items: z.array(ResellerItem).describe("The game's items (empty for Mobile Legends)"),
});

/** GET /api/v1/games. */
export const V1GamesAnswer = z.object({ games: z.array(Game) });

const Validity = z.enum(["valid", "invalid", "error"]);

/** Which supplier shape a verify `result` has: the discriminator of its union. */
const Shape = <S extends string>(shape: S, games: string) =>
  z.literal(shape).describe(`\`${shape}\`: ${games}`);

export const MlbbResult = z.object({
  shape: Shape("mlbb", "Mobile Legends"),
  mlbb_global: Validity.describe("The account on the global package"),
  mlbb_special: Validity.describe("The account on the special package"),
  name1: z.string().describe("The player's name from the global check"),
  name2: z.string().describe("The player's name from the special check"),
  error1: z.string(),
  error2: z.string(),
  region: z.string(),
  choice: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("ok"), package: z.enum(MLBB_PACKAGES) }),
    z.object({ kind: z.literal("out_of_stock"), package: z.enum(MLBB_PACKAGES).optional() }),
    z.object({ kind: z.literal("invalid") }),
  ]).describe(
    "The package an order for this account uses (`ok`), or why an order would be refused",
  ),
  userName: z.string().describe(
    "The player's name under the package decided (`choice.package` when `ok`), empty otherwise: the `userName` to send with the order",
  ),
}).describe("Mobile Legends: both packages checked, and the package decided")
  .meta({ id: "MlbbVerifyResult" });

export const ElitediasResult = z.object({
  shape: Shape("elitedias", "games supplied by EliteDias"),
  valid: Validity.describe("`valid`: the account exists; `invalid`: it does not"),
  name: z.string().describe("The player's name, when the supplier gives it"),
  error: z.string().describe("The supplier's reason, when not valid"),
}).describe("Games supplied by EliteDias").meta({ id: "ElitediasVerifyResult" });

export const MoogoldResult = z.object({
  shape: Shape("moogold", "games supplied by MooGold"),
  status: z.enum(["true", "false"]).describe("`true`: the account exists"),
  username: z.string().describe("The player's name, when the supplier gives it"),
  message: z.string().describe("The supplier's words"),
}).describe("Games supplied by MooGold").meta({ id: "MoogoldVerifyResult" });

/** The discriminator of verify's `result`, and the component schema of each of its values. */
export const VERIFY_RESULT_SHAPES = {
  mlbb: "MlbbVerifyResult",
  elitedias: "ElitediasVerifyResult",
  moogold: "MoogoldVerifyResult",
} as const;

/** POST /api/v1/verify. */
export const V1VerifyAnswer = z.object({
  gameId: z.uuid(),
  result: z.discriminatedUnion("shape", [MlbbResult, ElitediasResult, MoogoldResult])
    .describe(
      "The supplier's answer, in the shape of the game's supplier, named by its `shape` field",
    )
    .meta({
      discriminator: {
        propertyName: "shape",
        mapping: Object.fromEntries(
          Object.entries(VERIFY_RESULT_SHAPES).map(([shape, name]) => [
            shape,
            `#/components/schemas/${name}`,
          ]),
        ),
      },
    }),
});

const Order = z.object({
  id: z.string().describe("The order's id, also its reference at the supplier"),
  status: z.enum(RESELLER_ORDER_STATUSES).describe(
    "`new`: placed and paid from your balance; `pending`: the supplier is delivering; `successful`: delivered; `error`: not delivered, and its amount refunded to your balance",
  ),
  date: Time("When it was placed"),
  game: z.string().describe("The game's name"),
  package: z.string().describe("Mobile Legends: the package it was ordered under; else empty"),
  packageEDName: z.string().describe("The supplier's name of the game or package"),
  userName: z.string(),
  userID: z.string(),
  serverID: z.string(),
  item: z.string().describe("The item's name"),
  amount: Dollars("What the order cost you"),
  supplierOrderID: z.string().describe("The supplier's id for it, once accepted; else empty"),
  denom: z.string().describe("The supplier's name or id of the item"),
  buyerType: z.literal("reseller"),
  reseller: z.object({
    id: z.uuid(),
    name: z.string(),
    oldBalance: Dollars("Your balance before the order"),
    newBalance: Dollars("Your balance after the order"),
  }),
});

/** POST /api/v1/orders and GET /api/v1/orders/{id}. */
export const V1OrderAnswer = z.object({ order: Order });

const NextCursor = z.string().nullable()
  .describe("Pass as `cursor` for the next page; null on the last page");

/** GET /api/v1/orders. */
export const V1OrdersAnswer = z.object({ orders: z.array(Order), nextCursor: NextCursor });

/** GET /api/v1/balance. */
export const V1BalanceAnswer = z.object({ balance: Dollars("Your balance") });

const BalanceEntry = z.object({
  id: z.number().int().describe("The entry's number; later entries have larger ones"),
  date: Time("When the balance moved"),
  old: Dollars("The balance before"),
  new: Dollars("The balance after"),
  type: z.enum(Object.keys(BALANCE_TYPE_LABELS) as [keyof typeof BALANCE_TYPE_LABELS]),
  order: z.object({
    id: z.string(),
    date: Time("When the order was placed"),
    item: z.string(),
    amount: Dollars("The order's amount"),
  }).nullable().describe("The order, for `order_placed`; else null"),
});

/** GET /api/v1/balance/history. */
export const V1HistoryAnswer = z.object({
  entries: z.array(BalanceEntry),
  nextCursor: NextCursor,
});

/** GET /api/v1/webhook. */
export const V1WebhookAnswer = z.object({
  url: z.string().nullable().describe("Where order events are sent; null when none is set"),
  updatedAt: Time("When the URL was last set").nullable(),
});

const Secret = z.string().describe("The signing secret (whsec_...), shown this once");

/** PUT /api/v1/webhook. */
export const V1WebhookSavedAnswer = z.object({
  url: z.string(),
  secret: Secret.optional().describe("Only when the first URL is set: the signing secret"),
});

/** POST /api/v1/webhook/roll_secret. */
export const V1WebhookRolledAnswer = z.object({ url: z.string(), secret: Secret });

/** Compiles only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

/** Each answer schema is the DTO type the domain answers with: `deno check` fails when they part. */
export type AnswersMatchTheDomain = [
  Holds<Same<z.infer<typeof ResellerItem>, ResellerItemDto>>,
  Holds<Same<z.infer<typeof Game>, ApiGame>>,
  Holds<
    Same<
      z.infer<typeof MlbbResult>,
      MlbbVerification & { shape: "mlbb"; choice: PackageChoice; userName: string }
    >
  >,
  Holds<Same<z.infer<typeof ElitediasResult>, ElitediasVerification & { shape: "elitedias" }>>,
  Holds<Same<z.infer<typeof MoogoldResult>, MoogoldValidateAnswer & { shape: "moogold" }>>,
  Holds<Same<z.infer<typeof V1VerifyAnswer>, ApiVerification>>,
  Holds<Same<z.infer<typeof Order>, ResellerOrderDto>>,
  Holds<Same<z.infer<typeof BalanceEntry>, BalanceEntryDto>>,
  Holds<Same<z.infer<typeof V1WebhookAnswer>, WebhookSettingsDto>>,
  Holds<Same<z.infer<typeof V1WebhookSavedAnswer>, WebhookSavedDto>>,
];
