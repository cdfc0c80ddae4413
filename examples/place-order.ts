// A reseller's program that places an order and follows it to the end, with the typed client:
// openapi-fetch over the types generated from the API's OpenAPI document (reseller-api.d.ts).
//   BASE=https://your-shop KEY=tk_live_... deno run --allow-net --allow-env \
//     examples/place-order.ts "PUBG Mobile" 5551234 [serverid]
// tests/api/reseller-api-client_test.ts runs it against the simulators.
import createClient from "openapi-fetch";
import type { paths } from "./reseller-api.d.ts";

type Order = paths["/api/v1/orders/{id}"]["get"]["responses"][200]["content"][
  "application/json"
]["order"];

/** An error answer's message, for a thrown Error. */
function failed(what: string, error: { error: { code: string; message: string } }): Error {
  return new Error(`${what}: ${error.error.code}: ${error.error.message}`);
}

/**
 * Verifies the player, orders the game's first item at the price listed, and asks for the order
 * until it is delivered or failed (its amount then refunded).
 */
export async function placeAndTrack(
  base: string,
  key: string,
  wanted: { game: string; userid: string; serverid?: string; pollMs?: number; maxPolls?: number },
): Promise<Order> {
  const api = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${key}` } });
  const games = await api.GET("/api/v1/games");
  if (games.error) throw failed("games", games.error);
  const game = games.data.games.find((g) => g.name === wanted.game);
  const item = game?.items[0];
  if (!game || !item) throw new Error(`${wanted.game}: no such game, or no item to order`);
  const account = { gameId: game.id, userid: wanted.userid, serverid: wanted.serverid };

  const verified = await api.POST("/api/v1/verify", { body: account });
  if (verified.error) throw failed("verify", verified.error);
  const result = verified.data.result;
  // `shape` names the supplier's answer, so the generated types narrow `result` on it.
  const name = result.shape === "mlbb"
    ? result.userName
    : result.shape === "elitedias"
    ? result.name
    : result.username;

  // One key per order: if this request's answer is lost, sending it again cannot order twice.
  const placed = await api.POST("/api/v1/orders", {
    params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    body: { ...account, item: item.key, userName: name, expectedPrice: item.price },
  });
  if (placed.error) throw failed("order", placed.error);
  let order = placed.data.order;
  for (let poll = 0; !isFinal(order.status); poll++) {
    if (poll === (wanted.maxPolls ?? 60)) throw new Error(`order ${order.id} is still open`);
    await new Promise((done) => setTimeout(done, wanted.pollMs ?? 2_000));
    const asked = await api.GET("/api/v1/orders/{id}", { params: { path: { id: order.id } } });
    if (asked.error) throw failed("order status", asked.error);
    order = asked.data.order;
  }
  return order;
}

function isFinal(status: Order["status"]): boolean {
  return status === "successful" || status === "error";
}

if (import.meta.main) {
  const [game, userid, serverid] = Deno.args;
  const base = Deno.env.get("BASE");
  const key = Deno.env.get("KEY");
  if (!base || !key || !game || !userid) {
    throw new Error('usage: BASE=... KEY=... place-order.ts "<game>" <userid> [serverid]');
  }
  const order = await placeAndTrack(base, key, { game, userid, serverid });
  console.log(`${order.id}: ${order.status}, ${order.item} for $${order.amount.toFixed(2)}`);
}
