// The simulated EliteDias shop behind the request checks: catalogue prices, checkid, top-ups and
// the reseller balance. Orders reach their outcome lazily (computed when read), so the shop owns no
// timers and tests leak nothing.

import {
  createReferenceCounter,
  type ReferenceCount,
  type SimulatorKnobs,
} from "../simulator-kit.ts";
import { centsToDecimalString, dollarsToCents } from "../../domain/money.ts";
import { ELITEDIAS_CATALOGUE } from "./catalogue.ts";
import {
  type AccountCheck,
  checkMlbbAccount,
  checkOtherAccount,
  MLBB_GAMES,
  type MlbbGame,
} from "./test-accounts.ts";

/** An order as the simulator holds it. */
export interface ElitediasSimOrder {
  orderId: string;
  reference: string | null;
  game: string;
  denom: string;
  userid: string;
  serverid: string;
  priceCents: number;
  createdAtMs: number;
  /** Set by setOrderStatus; until then the status follows completeAfterMs. */
  forcedStatus: string | null;
  /** Where the order ends on its own: failed when checkid would not accept the account. */
  outcome: "success" | "failed";
}

/** An EliteDias refusal: a non-"200" code and its message. */
export interface ElitediasRejection {
  code: string;
  message: string;
}

/** The top-up refusal rejectOrders uses by default. */
export const ELITEDIAS_OUT_OF_STOCK: ElitediasRejection = { code: "400", message: "Out of stock" };

/** A decoded request body. */
export type ElitediasBody = Record<string, unknown>;

/** The shop's endpoints by path (without leading slash), and the levers tests pull. */
export interface ElitediasShop {
  routes: Record<string, (body: ElitediasBody) => Response>;
  /** Changes a denomination's price; later denominations calls show it. */
  setCost(game: string, denom: string, price: string | number): void;
  /** Forces an order's order_status text (e.g. "success", "failed", "refunded") from now on. */
  setOrderStatus(orderId: string, status: string): void;
  completeOrder(orderId: string): void;
  /** Refuses every top-up with this error (default out of stock) until acceptOrders. */
  rejectOrders(rejection?: ElitediasRejection): void;
  acceptOrders(): void;
  /** Orders placed so far, oldest first. */
  listOrders(): ElitediasSimOrder[];
  /** Top-up requests received and orders made, by our reference (reference "" = none sent). */
  countsByReference(): ReferenceCount[];
  setBalance(amount: string | number): void;
}

const FIRST_ORDER_NUMBER = 10_000_001;

/** Creates the shop with the seeded catalogue; `knobs` is read live for completeAfterMs. */
export function createElitediasShop(options: {
  knobs: SimulatorKnobs;
  now: () => number;
  balance: string;
  serverListRoute: string;
}): ElitediasShop {
  const { knobs, now } = options;
  const games = new Map(ELITEDIAS_CATALOGUE.map((game) => [game.code, game]));
  const prices = new Map<string, Map<string, number>>();
  for (const game of ELITEDIAS_CATALOGUE) {
    const entries = Object.entries(game.denominations);
    prices.set(game.code, new Map(entries.map(([name, price]) => [name, dollarsToCents(price)])));
  }
  const orders = new Map<string, ElitediasSimOrder>();
  const orderIdByReference = new Map<string, string>();
  const received = createReferenceCounter();
  let nextOrderNumber = FIRST_ORDER_NUMBER;
  let balanceCents = dollarsToCents(options.balance);
  let rejection: ElitediasRejection | null = null;

  function formatPrice(gameCode: string, cents: number): string | number {
    return games.get(gameCode)?.priceFormat === "string"
      ? centsToDecimalString(cents)
      : cents / 100;
  }

  function checkAccount(gameCode: string, userid: string, serverid: string): AccountCheck {
    const game = games.get(gameCode);
    if (game === undefined) return { valid: "error", error: "Game not supported" };
    if ((MLBB_GAMES as readonly string[]).includes(gameCode)) {
      return checkMlbbAccount(gameCode as MlbbGame, userid, serverid);
    }
    const servers = Object.values(game.servers);
    const badServer = serverid === "" || (servers.length > 0 && !servers.includes(serverid));
    if (game.fields.includes("serverid") && badServer) return { valid: "invalid" };
    return checkOtherAccount(userid);
  }

  // Lowercase, since a public client looks for "success" in order_status case-sensitively
  // (external-apis.md §2.2; that client's repository could not be found again); the pending and
  // failed words are not documented.
  function statusOf(order: ElitediasSimOrder): string {
    if (order.forcedStatus !== null) return order.forcedStatus;
    return now() - order.createdAtMs >= knobs.completeAfterMs ? order.outcome : "pending";
  }

  // A public client takes status "success" with code "200" as an accepted top-up (its repository
  // could not be found again: tests/fixtures/elitedias/topup-success.json says what it showed).
  function topupAnswer(order: ElitediasSimOrder): Response {
    return Response.json({
      code: "200",
      status: "success",
      order_id: order.orderId,
      message: "Order placed successfully",
    });
  }

  const routes: ElitediasShop["routes"] = {
    // What each value of `info` holds is not documented: the simulator sends the game's notes.
    "elitedias_games_data": () =>
      Response.json({
        code: "200",
        info: Object.fromEntries(ELITEDIAS_CATALOGUE.map((game) => [game.code, game.notes])),
      }),

    "elitedias_games_available": () =>
      Response.json({ code: "200", games: ELITEDIAS_CATALOGUE.map((game) => game.code) }),

    "elitedias_api_denominations": (body) => {
      const game = games.get(String(body.game));
      if (game === undefined) return elitediasError("400", "Invalid game");
      const gamePrices = [...(prices.get(game.code) ?? [])];
      if (gamePrices.length === 0) return elitediasError("403", "No denominations available");
      // A flat map with no envelope, as EliteDias sends it.
      return Response.json(
        Object.fromEntries(
          gamePrices.map(([name, cents]) => [name, formatPrice(game.code, cents)]),
        ),
      );
    },

    "elitedias_game_fields": (body) => {
      const game = games.get(String(body.game));
      if (game === undefined) return elitediasError("400", "Invalid game");
      return Response.json({ code: "200", info: { fields: game.fields, notes: game.notes } });
    },

    [options.serverListRoute]: (body) => {
      const game = games.get(String(body.game));
      if (game === undefined) return elitediasError("400", "Invalid game");
      // An empty PHP associative array is encoded as [], so that is what "no servers" looks like.
      const servers = Object.keys(game.servers).length === 0 ? [] : game.servers;
      return Response.json({ code: "200", servers });
    },

    "checkid": (body) =>
      Response.json(
        checkAccount(
          String(body.game ?? ""),
          String(body.userid ?? ""),
          String(body.serverid ?? ""),
        ),
      ),

    "elitedias_reseller_topup_api": (body) => {
      const reference = typeof body.reference === "string" && body.reference !== ""
        ? body.reference
        : null;
      received.received(reference);
      // A repeated reference answers with the order it already created: no second order, no
      // second debit, so a caller retrying after a timeout cannot double-deliver.
      const existingId = reference === null ? undefined : orderIdByReference.get(reference);
      const existing = existingId === undefined ? undefined : orders.get(existingId);
      if (existing !== undefined) return topupAnswer(existing);
      if (rejection !== null) return elitediasError(rejection.code, rejection.message);
      // The refusals' codes and texts are the ones a public client handles (its repository could not
      // be found again: tests/fixtures/elitedias/topup-*.json say what it showed).
      const game = games.get(String(body.game));
      const denom = String(body.denom ?? "");
      const cents = game === undefined ? undefined : prices.get(game.code)?.get(denom);
      if (game === undefined || cents === undefined) {
        return elitediasError("400", "Invalid product");
      }
      const userid = String(body.userid ?? "").trim();
      const serverid = String(body.serverid ?? "").trim();
      if (userid === "" || (game.fields.includes("serverid") && serverid === "")) {
        return elitediasError("400", "There may be missing attributes in your request");
      }
      if (cents > balanceCents) return elitediasError("403", "Insufficient balance");
      balanceCents -= cents;
      const order: ElitediasSimOrder = {
        orderId: `ED${nextOrderNumber++}`,
        reference,
        game: game.code,
        denom,
        userid,
        serverid,
        priceCents: cents,
        createdAtMs: now(),
        forcedStatus: null,
        outcome: checkAccount(game.code, userid, serverid).valid === "valid" ? "success" : "failed",
      };
      orders.set(order.orderId, order);
      if (reference !== null) orderIdByReference.set(reference, order.orderId);
      return topupAnswer(order);
    },

    "track_order": (body) => {
      const order = orders.get(String(body.order_id));
      if (order === undefined) return elitediasError("404", "Order not found");
      const status = statusOf(order);
      return Response.json({
        code: "200",
        order_id: order.orderId,
        order_status: status,
        // A number whatever the game's denominations send: TrackOrderResponse's price is a float.
        price: order.priceCents / 100,
        game: order.game,
        denom: order.denom,
        userid: order.userid,
        serviceid: order.serverid,
        order_details: [],
        // Unix seconds as a number, as a public model (TrackOrderResponse) reads it (external-apis.md
        // §2.2; its repository could not be found again).
        timestamp: order.createdAtMs / 1000,
        message: status,
      });
    },

    "elitedias_api_balance": () =>
      Response.json({ code: "200", reseller_balance: balanceCents / 100 }),
  };

  function setOrderStatus(orderId: string, status: string): void {
    const order = orders.get(orderId);
    if (order === undefined) throw new RangeError(`no order ${orderId}`);
    order.forcedStatus = status;
  }

  return {
    routes,
    setCost(game, denom, price) {
      const gamePrices = prices.get(game);
      if (gamePrices === undefined || !gamePrices.has(denom)) {
        throw new RangeError(`no denomination "${denom}" for ${game}`);
      }
      gamePrices.set(denom, dollarsToCents(price));
    },
    setOrderStatus,
    completeOrder(orderId) {
      setOrderStatus(orderId, "success");
    },
    rejectOrders(next = ELITEDIAS_OUT_OF_STOCK) {
      rejection = next;
    },
    acceptOrders() {
      rejection = null;
    },
    listOrders() {
      return [...orders.values()].map((order) => ({ ...order }));
    },
    countsByReference() {
      return received.counts([...orders.values()].map((order) => order.reference));
    },
    setBalance(amount) {
      balanceCents = dollarsToCents(amount);
    },
  };
}

/** EliteDias answers refusals with HTTP 200 and a non-"200" code. */
export function elitediasError(code: string, message: string): Response {
  return Response.json({ code, message });
}
