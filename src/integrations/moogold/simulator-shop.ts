// The simulated MooGold shop behind the request checks: catalogue prices, account validation,
// orders and the wallet. Orders move from processing to their outcome lazily (computed when read),
// so the shop owns no timers and tests leak nothing.

import {
  asObject,
  createReferenceCounter,
  formatSupplierDate,
  type ReferenceCount,
  type SimulatorKnobs,
} from "../simulator-kit.ts";
import { centsToDecimalString, dollarsToCents } from "../../domain/money.ts";
import { checkMlbbAccount, checkOtherAccount } from "../elitedias/test-accounts.ts";
import {
  MOOGOLD_CATALOGUE,
  MOOGOLD_MLBB_PRODUCT_ID,
  type MoogoldSeedProduct,
  type MoogoldSeedVariation,
} from "./catalogue.ts";

/** MooGold's own order status words. */
export type MoogoldOrderStatusText =
  | "processing"
  | "sending"
  | "completed"
  | "refunded"
  | "incorrect-details";

/** An order as the simulator holds it. */
export interface MoogoldSimOrder {
  orderId: number;
  partnerOrderId: string | null;
  productName: string;
  variationId: number;
  quantity: number;
  priceCents: number;
  playerId: string;
  serverId: string;
  createdAtMs: number;
  /** Set by setOrderStatus; until then the status follows completeAfterMs. */
  forcedStatus: MoogoldOrderStatusText | null;
  /** Where the order ends on its own: incorrect-details when the account does not validate. */
  outcome: "completed" | "incorrect-details";
}

/** A MooGold error answer. */
export interface MoogoldRejection {
  code: string;
  message: string;
}

/** The create_order refusal rejectOrders uses by default. */
export const MOOGOLD_OUT_OF_STOCK: MoogoldRejection = { code: "114", message: "Out of stock" };

const FIRST_ORDER_ID = 5_000_001;
const MAX_QUANTITY = 10;

/** A decoded request body. */
export type MoogoldBody = Record<string, unknown>;

/** The shop's endpoints by path, and the levers tests pull. */
export interface MoogoldShop {
  routes: Record<string, (body: MoogoldBody) => Response>;
  /** Changes a variation's price; later product_detail calls show it. */
  setCost(variationId: number, price: string | number): void;
  /** Forces an order's status from now on. */
  setOrderStatus(orderId: number, status: MoogoldOrderStatusText): void;
  completeOrder(orderId: number): void;
  /** Refuses every create_order with this error (default 114 out of stock) until acceptOrders. */
  rejectOrders(rejection?: MoogoldRejection): void;
  acceptOrders(): void;
  /** Orders placed so far, oldest first. */
  listOrders(): MoogoldSimOrder[];
  /** Create requests received and orders made, by our partnerOrderId (reference "" = none sent). */
  countsByReference(): ReferenceCount[];
  setBalance(amount: string | number): void;
}

/** Creates the shop with the seeded catalogue; `knobs` is read live for completeAfterMs. */
export function createMoogoldShop(
  options: { knobs: SimulatorKnobs; now: () => number; balance: string },
): MoogoldShop {
  const { knobs, now } = options;
  const products = MOOGOLD_CATALOGUE;
  const priceCents = new Map<number, number>();
  for (const product of products) {
    for (const variation of product.variations) {
      priceCents.set(variation.id, dollarsToCents(variation.price));
    }
  }
  const orders = new Map<number, MoogoldSimOrder>();
  const orderIdByPartnerId = new Map<string, number>();
  let nextOrderId = FIRST_ORDER_ID;
  let balanceCents = dollarsToCents(options.balance);
  let rejection: MoogoldRejection | null = null;
  const received = createReferenceCounter();

  function findVariation(
    variationId: number,
  ): { product: MoogoldSeedProduct; variation: MoogoldSeedVariation } | null {
    for (const product of products) {
      const variation = product.variations.find((v) => v.id === variationId);
      if (variation !== undefined) return { product, variation };
    }
    return null;
  }

  function statusOf(order: MoogoldSimOrder): MoogoldOrderStatusText {
    if (order.forcedStatus !== null) return order.forcedStatus;
    return now() - order.createdAtMs >= knobs.completeAfterMs ? order.outcome : "processing";
  }

  // Ids and amounts are strings, as pyMooGoldApi's OrderDetail and OrderItem read them.
  function orderJson(order: MoogoldSimOrder) {
    return {
      order_id: String(order.orderId),
      order_status: statusOf(order),
      item: [{
        product: order.productName,
        variation_id: order.variationId,
        quantity: order.quantity,
        price: centsToDecimalString(order.priceCents),
        player_id: order.playerId,
        server_id: order.serverId,
        voucher_code: [],
      }],
    };
  }

  // MooGold's labels vary by product, so the account is read the way the app must send it: the
  // first field is the player, a field named like "Server" is the server.
  function readAccount(product: MoogoldSeedProduct, data: MoogoldBody) {
    const serverLabel = product.fields.find((label) => label.startsWith("Server"));
    return {
      missing: product.fields.find((label) => String(data[label] ?? "").trim() === ""),
      player: String(data[product.fields[0]] ?? ""),
      server: serverLabel === undefined ? "" : String(data[serverLabel] ?? ""),
    };
  }

  // MLBB answers from the shared test-account table; other products refuse "invalid…" players.
  function checkAccount(
    product: MoogoldSeedProduct,
    data: MoogoldBody,
  ): { valid: boolean; message: string; username?: string } {
    const { missing, player, server } = readAccount(product, data);
    if (missing !== undefined) return { valid: false, message: `Please fill in ${missing}` };
    const servers = typeof product.serverList === "object" ? Object.values(product.serverList) : [];
    if (servers.length > 0 && !servers.includes(server)) {
      return { valid: false, message: "Invalid server" };
    }
    const check = product.id === MOOGOLD_MLBB_PRODUCT_ID
      ? checkMlbbAccount("mlbb", player, server)
      : checkOtherAccount(player);
    if (check.valid !== "valid") return { valid: false, message: check.error ?? "Invalid user" };
    return { valid: true, message: "Validation success", username: check.name };
  }

  function findProduct(id: unknown): MoogoldSeedProduct | undefined {
    return products.find((p) => p.id === Number(id));
  }

  const routes: MoogoldShop["routes"] = {
    "product/list_product": (body) =>
      Response.json(
        products
          .filter((p) => p.categoryId === Number(body.category_id))
          .map((p) => ({ ID: String(p.id), post_title: p.name })),
      ),

    "product/product_detail": (body) => {
      const product = findProduct(body.product_id);
      if (product === undefined) return moogoldError("422", "Wrong product id");
      return Response.json({
        Product_Name: product.name,
        Image_URL: product.imageUrl,
        Variation: product.variations.map((v) => ({
          variation_name: v.name,
          variation_id: v.id,
          variation_price: (priceCents.get(v.id) ?? 0) / 100,
        })),
        fields: product.fields,
      });
    },

    "product/server_list": (body) => {
      const product = findProduct(body.product_id);
      if (product === undefined) return moogoldError("422", "Wrong product id");
      return Response.json(product.serverList);
    },

    "product/validate": (body) => {
      const data = asObject(body.data);
      const product = findProduct(data["product-id"]);
      if (product === undefined) return moogoldError("422", "Wrong product id");
      const check = checkAccount(product, data);
      return Response.json({
        status: String(check.valid),
        message: check.message,
        ...(check.username === undefined ? {} : { username: check.username }),
      });
    },

    "order/create_order": (body) => {
      const data = asObject(body.data);
      received.received(body.partnerOrderId === undefined ? null : String(body.partnerOrderId));
      if (data["product-id"] === undefined) return moogoldError("113", "Product id missing");
      if (rejection !== null) return moogoldError(rejection.code, rejection.message);
      const found = findVariation(Number(data["product-id"]));
      if (found === null) return moogoldError("117", "Product not available");
      const quantity = Number(data.quantity ?? 1);
      if (!Number.isInteger(quantity) || quantity < 1) {
        return moogoldError("422", "Invalid quantity");
      }
      if (quantity > MAX_QUANTITY) return moogoldError("116", "Quantity cannot exceed 10");
      const account = readAccount(found.product, data);
      if (account.missing !== undefined) {
        return moogoldError("422", `Missing field: ${account.missing}`);
      }
      const partnerOrderId = body.partnerOrderId === undefined ? null : String(body.partnerOrderId);
      // A repeated partnerOrderId is refused with 420, as MooGold does (external-apis.md §1.5),
      // rather than answered with the first order: the caller then looks the order up with
      // order_detail_partner_id, the same path it needs after a timeout.
      if (partnerOrderId !== null && orderIdByPartnerId.has(partnerOrderId)) {
        return moogoldError("420", "Duplicate partnerOrderId");
      }
      const unitCents = priceCents.get(found.variation.id) ?? 0;
      if (unitCents * quantity > balanceCents) return moogoldError("111", "Insufficient balance");
      balanceCents -= unitCents * quantity;
      const order: MoogoldSimOrder = {
        orderId: nextOrderId++,
        partnerOrderId,
        productName: found.variation.name,
        variationId: found.variation.id,
        quantity,
        priceCents: unitCents,
        playerId: account.player,
        serverId: account.server,
        createdAtMs: now(),
        forcedStatus: null,
        outcome: checkAccount(found.product, data).valid ? "completed" : "incorrect-details",
      };
      orders.set(order.orderId, order);
      if (partnerOrderId !== null) orderIdByPartnerId.set(partnerOrderId, order.orderId);
      // pyMooGoldApi's NewOrder: status the string "true", every account detail a string.
      return Response.json({
        status: "true",
        message: "Order has been created successfully",
        account_details: {
          player_id: order.playerId,
          server_id: order.serverId,
          order_id: String(order.orderId),
        },
      });
    },

    "order/order_detail": (body) => {
      const order = orders.get(Number(body.order_id));
      if (order === undefined) return moogoldError("422", "Invalid order id");
      return Response.json({
        ...orderJson(order),
        date_created: formatSupplierDate(order.createdAtMs),
        total: centsToDecimalString(order.priceCents * order.quantity),
      });
    },

    "order/order_detail_partner_id": (body) => {
      const orderId = orderIdByPartnerId.get(String(body.partner_order_id));
      const order = orderId === undefined ? undefined : orders.get(orderId);
      if (order === undefined) return moogoldError("422", "Invalid partner order id");
      // No total here: pyMooGoldApi's PartnerOrderDetail has none, and clients must cope.
      return Response.json({
        ...orderJson(order),
        partner_order_id: order.partnerOrderId,
        date_created: {
          date: `${formatSupplierDate(order.createdAtMs)}.000000`,
          timezone_type: 3,
          timezone: "UTC",
        },
      });
    },

    "user/balance": () =>
      Response.json({ currency: "USD", balance: centsToDecimalString(balanceCents) }),
  };

  function setOrderStatus(orderId: number, status: MoogoldOrderStatusText): void {
    const order = orders.get(orderId);
    if (order === undefined) throw new RangeError(`no order ${orderId}`);
    order.forcedStatus = status;
  }

  return {
    routes,
    setCost(variationId, price) {
      if (!priceCents.has(variationId)) throw new RangeError(`no variation ${variationId}`);
      priceCents.set(variationId, dollarsToCents(price));
    },
    setOrderStatus,
    completeOrder(orderId) {
      setOrderStatus(orderId, "completed");
    },
    rejectOrders(next = MOOGOLD_OUT_OF_STOCK) {
      rejection = next;
    },
    acceptOrders() {
      rejection = null;
    },
    listOrders() {
      return [...orders.values()].map((order) => ({ ...order }));
    },
    countsByReference() {
      return received.counts([...orders.values()].map((order) => order.partnerOrderId));
    },
    setBalance(amount) {
      balanceCents = dollarsToCents(amount);
    },
  };
}

/** MooGold's error answer; clients read the body, so the HTTP status is secondary. */
export function moogoldError(code: string, message: string, status = 400): Response {
  return Response.json({ err_code: code, err_message: message }, { status });
}
