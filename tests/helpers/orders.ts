import type { TestClient } from "./client.ts";
import type { Db } from "../../src/db/client.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import type { PlaceOrderInput } from "../../src/domain/orders/place.ts";

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
    kind: "elephant",
    resellerId,
    seesHiddenGames: false,
    supplierGameName: "pubgm",
    denom,
    userid: "5551234",
    serverid: "",
    userName: "Player",
  };
}
