// Every /api/v1 operation (issues 11 and 25): the zod schemas its route parses with, the zod schema
// of its answer, the errors it can answer and an example of each. The OpenAPI document
// (server/openapi.ts) is built from this list alone, and tests/api/reseller-api_test.ts holds it to
// the route files, so an operation cannot be served without being described.
import type { z } from "zod";
import {
  V1HistoryQuery,
  V1OrderInput,
  V1OrdersQuery,
  V1VerifyInput,
  V1WebhookInput,
} from "./reseller-api-inputs.ts";
import {
  V1BalanceAnswer,
  V1GamesAnswer,
  V1HistoryAnswer,
  V1OrderAnswer,
  V1OrdersAnswer,
  V1VerifyAnswer,
  V1WebhookAnswer,
  V1WebhookRolledAnswer,
  V1WebhookSavedAnswer,
} from "./reseller-api-outputs.ts";

/** The error statuses an operation may answer besides those every operation can. */
export type V1OperationError = 400 | 402 | 404 | 409 | 502;

/** One route of /api/v1 as the document describes it. */
export interface V1Operation {
  method: "get" | "post" | "put";
  path: string;
  summary: string;
  description: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  pathParams?: Record<string, string>;
  idempotent?: boolean;
  success: {
    status: 200 | 201;
    description: string;
    schema: z.ZodType;
    /** Named examples of the answer (the first is the main one). */
    examples: Record<string, { summary: string; value: unknown }>;
  };
  /** Each error it may answer besides the common ones, with the message of its example. */
  errors: Partial<Record<V1OperationError, string>>;
}

const GAME_ID = "3f1c2a9e-6b7d-4c21-9a55-0e8f4b1d2c3a";
const RESELLER_ID = "dcc1c3fd-2ecd-4753-a981-bcc2dea7aca3";

const ITEM = {
  key: "60 UC",
  name: "60 UC",
  nameConsumer: { header: "60 UC", subheader: "" },
  price: 0.93,
  image: "",
  isDoubleRecharge: false,
};

const ORDER = {
  id: "RMWW3JM4LD15UXR3D",
  status: "new",
  date: "2026-11-25T12:25:16.482Z",
  game: "PUBG Mobile",
  package: "",
  packageEDName: "pubgm",
  userName: "Player One",
  userID: "5551234",
  serverID: "",
  item: "60 UC",
  amount: 0.93,
  supplierOrderID: "",
  denom: "60 UC",
  buyerType: "reseller",
  reseller: { id: RESELLER_ID, name: "Demo Reseller", oldBalance: 1000, newBalance: 999.07 },
};

const only = (summary: string, value: unknown) => ({ answer: { summary, value } });

/** Every /api/v1 route a key may call. */
export const V1_OPERATIONS: V1Operation[] = [
  {
    method: "get",
    path: "/api/v1/games",
    summary: "List games and items with your prices",
    description:
      "Every game you can order, its packages (Mobile Legends) and items, priced for your account.",
    success: {
      status: 200,
      description: "The games",
      schema: V1GamesAnswer,
      examples: only("One game", {
        games: [{
          id: GAME_ID,
          name: "PUBG Mobile",
          requiresServerID: false,
          requiresCharacterName: false,
          servers: {},
          isOutOfStock: false,
          packages: [],
          items: [ITEM],
        }],
      }),
    },
    errors: {},
  },
  {
    method: "post",
    path: "/api/v1/verify",
    summary: "Verify a player account",
    description:
      "Checks the account with the game's supplier, as the portal's Verify does; for Mobile Legends it also chooses the package the order will use, and the player's name under it (`userName`). The answer's `result` has the shape of the game's supplier, named by its `shape` field (`mlbb`, `elitedias` or `moogold`). Nothing is charged.",
    body: V1VerifyInput,
    success: {
      status: 200,
      description: "The supplier's answer (an account that does not exist is a 200 too)",
      schema: V1VerifyAnswer,
      examples: {
        elitedias: {
          summary: "A game supplied by EliteDias",
          value: {
            gameId: GAME_ID,
            result: { shape: "elitedias", valid: "valid", name: "Player One", error: "" },
          },
        },
        mlbb: {
          summary: "Mobile Legends",
          value: {
            gameId: GAME_ID,
            result: {
              shape: "mlbb",
              mlbb_global: "valid",
              mlbb_special: "valid",
              name1: "Player One",
              name2: "Player One",
              error1: "",
              error2: "",
              region: "Philippines",
              choice: { kind: "ok", package: "mlbb_special" },
              userName: "Player One",
            },
          },
        },
        moogold: {
          summary: "A game supplied by MooGold, account unknown",
          value: {
            gameId: GAME_ID,
            result: {
              shape: "moogold",
              status: "false",
              username: "",
              message: "Invalid user ID",
            },
          },
        },
      },
    },
    errors: {
      400: "userid is required",
      404: "Game not found",
      502: "Failed to verify ID: the supplier did not answer",
    },
  },
  {
    method: "post",
    path: "/api/v1/orders",
    summary: "Place an order",
    description:
      "Verifies the account with the game's supplier first, for every game, as the portal's order flow does: an account the supplier calls invalid is refused (400 `Invalid user`) and a supplier that cannot be asked is a 502, both before anything is charged. Then it debits your balance and sends the order to the supplier; follow it with GET /api/v1/orders/{id} or your webhook. Requires an Idempotency-Key header: repeating a request with the same key returns the first answer byte for byte and never orders twice; the same key with a different body is a 409.",
    body: V1OrderInput,
    idempotent: true,
    success: {
      status: 201,
      description: "The order, placed and paid",
      schema: V1OrderAnswer,
      examples: only("A new order", { order: ORDER }),
    },
    errors: {
      400: "Invalid user",
      402: "Insufficient balance in your account, please check.",
      404: "Item not found",
      409: "The price of this item is now $1.02. Please check and order again.",
      502: "Failed to verify ID: the supplier did not answer",
    },
  },
  {
    method: "get",
    path: "/api/v1/orders",
    summary: "List your orders",
    description: "Newest first, a page at a time; pass nextCursor as cursor for the next page.",
    query: V1OrdersQuery,
    success: {
      status: 200,
      description: "One page of orders",
      schema: V1OrdersAnswer,
      examples: only("The last page", { orders: [ORDER], nextCursor: null }),
    },
    errors: { 400: "cursor: not a cursor this API returned" },
  },
  {
    method: "get",
    path: "/api/v1/orders/{id}",
    summary: "Get one order",
    description: "One of your orders by its id; another reseller's order is not found.",
    pathParams: { id: "The order's id" },
    success: {
      status: 200,
      description: "The order",
      schema: V1OrderAnswer,
      examples: only("A delivered order", {
        order: { ...ORDER, status: "successful", supplierOrderID: "948211" },
      }),
    },
    errors: { 404: "Order not found" },
  },
  {
    method: "get",
    path: "/api/v1/balance",
    summary: "Get your balance",
    description: "Your current balance in dollars.",
    success: {
      status: 200,
      description: "Your balance",
      schema: V1BalanceAnswer,
      examples: only("A balance", { balance: 999.07 }),
    },
    errors: {},
  },
  {
    method: "get",
    path: "/api/v1/balance/history",
    summary: "List your balance history",
    description: "Every balance movement, newest first, a page at a time.",
    query: V1HistoryQuery,
    success: {
      status: 200,
      description: "One page of balance movements",
      schema: V1HistoryAnswer,
      examples: only("Two movements", {
        entries: [
          {
            id: 2,
            date: ORDER.date,
            old: 1000,
            new: 999.07,
            type: "order_placed",
            order: { id: ORDER.id, date: ORDER.date, item: "60 UC", amount: 0.93 },
          },
          {
            id: 1,
            date: "2026-11-01T09:00:00.000Z",
            old: 0,
            new: 1000,
            type: "initial",
            order: null,
          },
        ],
        nextCursor: null,
      }),
    },
    errors: { 400: "cursor: not a cursor this API returned" },
  },
  {
    method: "get",
    path: "/api/v1/webhook",
    summary: "Get your webhook URL",
    description:
      "The callback URL order events are sent to (null when none is set); never the secret.",
    success: {
      status: 200,
      description: "Your webhook",
      schema: V1WebhookAnswer,
      examples: only("A webhook", {
        url: "https://shop.example/hooks/topup",
        updatedAt: "2026-11-20T08:30:00.000Z",
      }),
    },
    errors: {},
  },
  {
    method: "put",
    path: "/api/v1/webhook",
    summary: "Set your webhook URL",
    description:
      "Order events (successful, error, refunded) are POSTed here, signed with HMAC-SHA256 in the X-TopUp-Signature header. The first URL you set answers with the signing secret, shown this once; a later change keeps it.",
    body: V1WebhookInput,
    success: {
      status: 200,
      description: "The URL saved, and the secret when it is the first",
      schema: V1WebhookSavedAnswer,
      examples: {
        first: {
          summary: "The first URL",
          value: {
            url: "https://shop.example/hooks/topup",
            secret: "whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAA",
          },
        },
        change: { summary: "A later change", value: { url: "https://shop.example/hooks/v2" } },
      },
    },
    errors: { 400: "The callback URL must use https" },
  },
  {
    method: "post",
    path: "/api/v1/webhook/roll_secret",
    summary: "Replace your webhook signing secret",
    description:
      "Makes a new signing secret and answers with it, shown this once; the old one stops signing at once. Without a webhook URL set it is a 400.",
    success: {
      status: 200,
      description: "The new secret",
      schema: V1WebhookRolledAnswer,
      examples: only("A new secret", {
        url: "https://shop.example/hooks/topup",
        secret: "whsec_9Zk1-8BBBBBBBBBBBBBBBBBBBBBBBBBB",
      }),
    },
    errors: { 400: "Set a callback URL first" },
  },
];
