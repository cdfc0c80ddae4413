import type { TestClient } from "./client.ts";
import type { Db } from "../../src/db/client.ts";
import type { NewOrder } from "../../src/db/schema.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import { type PlaceOrderInput, placeResellerOrder } from "../../src/domain/orders/place.ts";
import { sendOrderToSupplier } from "../../src/domain/orders/fulfil.ts";
import type { GameItemDto } from "../../src/shared/game-types.ts";
import { createTestReseller } from "./resellers.ts";

export interface CatalogueItem {
  key: string;
  name: string;
  price: number;
}

/**
 * What the reseller's browser sends to order the first PUBG Mobile item (EliteDias) at the price it
 * was shown, read from the reseller's own catalogue.
 */
export async function pubgOrder(client: TestClient) {
  const games = (await client.get("/api/reseller/games")).json as {
    _id: string;
    supplierName: string;
    supplierGameID: string;
    name: string;
  }[];
  const pubg = games.find((g) => g.supplierName === "pubgm")!;
  const item: CatalogueItem = (await client.get(`/api/resellers/game/${pubg._id}`)).json
    .gameItems[0];
  const body = {
    game: pubg.name,
    supplierGameName: "pubgm",
    userid: "5551234",
    serverid: "",
    denom: item.key,
    userName: "Player",
    itemName: item.name,
    amount: item.price,
    cost: 0,
  };
  return { games, pubg, item, body };
}

/** Launches PUBG Mobile from the EliteDias simulator with a 5 % reseller markup. */
export async function launchPubgMobile(db: Db, suppliers: Suppliers): Promise<void> {
  await launchGame(
    db,
    suppliers,
    LaunchGameSchema.parse({
      name: "PUBG Mobile",
      supplier: "elephant",
      supplierName: "pubgm",
      resellerMarkupAll: 5,
    }),
    { _id: null, name: "test" },
  );
}

/** A reseller's order of PUBG Mobile's `denom` for player 5551234, as the domain takes it. */
export function pubgOrderInput(resellerId: string, denom: string): PlaceOrderInput {
  return {
    game: { supplier: "elephant", supplierName: "pubgm" },
    resellerId,
    seesHiddenGames: false,
    denom,
    userid: "5551234",
    serverid: "",
    userName: "Player",
  };
}

/**
 * PUBG Mobile launched from `suppliers`, and `count` orders of its first item by a new reseller,
 * each sent to EliteDias, which accepted it (pending until it completes): what a status refresh
 * asks about. Their ids.
 */
export async function pendingPubgOrders(
  db: Db,
  suppliers: Suppliers,
  count: number,
): Promise<string[]> {
  await launchPubgMobile(db, suppliers);
  const game = await db.selectFrom("games").select("game_items")
    .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
  const denom = (game.game_items as GameItemDto[])[0].nameSupplier;
  const reseller = await createTestReseller(db, {
    name: "Pending Shop",
    email: "pending@shop.test",
    password: "a long enough password",
    balanceCents: 100_000,
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const placed = await placeResellerOrder({ db, suppliers }, pubgOrderInput(reseller._id, denom));
    if (!await sendOrderToSupplier(db, suppliers, placed.body.order.id)) {
      throw new Error(`EliteDias gave no answer to ${placed.body.order.id}`);
    }
    ids.push(placed.body.order.id);
  }
  return ids;
}

/**
 * A consumer order row as a test inserts it directly: a manual payment for Genshin Impact's 60
 * Genesis Crystals, cancelled and never sent, with `overrides` on top.
 */
export function consumerOrderRow(overrides: Partial<NewOrder> & { id: string }): NewOrder {
  return {
    buyer_type: "consumer",
    status: "cancelled",
    game_id: null,
    game: "Genshin Impact",
    item: "60 Genesis Crystals",
    denom: "60",
    user_id: "812345678",
    server_id: "os_asia",
    amount_cents: 100,
    cost: "0.9",
    supplier: "elephant",
    consumer_id: null,
    consumer_name: "Ana",
    consumer_email: "ana@example.com",
    consumer_phone: "+6581234567",
    reseller_id: null,
    reseller_name: null,
    old_balance_cents: null,
    new_balance_cents: null,
    package: null,
    package_ed_name: null,
    supplier_order_id: null,
    payment_provider: "manual",
    payment_reference: null,
    last_error: null,
    review_since: null,
    review_reason: null,
    ...overrides,
  };
}
