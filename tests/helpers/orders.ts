import type { TestClient } from "./client.ts";

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
