import type { APIContext } from "astro";
import {
  type PlaceOrderInput,
  type PlaceOrderResult,
  placeResellerOrder,
  SUPPLIER_CREATE_JOB,
} from "../domain/orders/place.ts";
import { kickJobs } from "../domain/jobs.ts";
import { ELITEDIAS_KEY } from "../integrations/elitedias/port.ts";
import { MOOGOLD_KEY } from "../integrations/moogold/port.ts";
import { readJson, requireReseller } from "./http.ts";
import {
  ElitediasOrderInput,
  idempotencyKeyOf,
  MlbbOrderInput,
  MoogoldOrderInput,
} from "./order-inputs.ts";

/** The spec's three place-order routes: Mobile Legends, an EliteDias game, a MooGold product. */
export type PlaceOrderRoute = "mlbb" | "elephant" | "monkey";

/** Shared by the three place-order routes (spec §7 Reseller). */
export async function handlePlaceOrder(
  { locals, request }: APIContext,
  route: PlaceOrderRoute,
): Promise<Response> {
  const reseller = requireReseller(locals);
  const key = idempotencyKeyOf(request);
  const common = {
    resellerId: reseller._id,
    seesHiddenGames: locals.app.config.privilegedResellers.includes(reseller.email),
  };
  let input: PlaceOrderInput;
  if (route === "mlbb") {
    const b = await readJson(request, MlbbOrderInput);
    input = {
      ...common,
      ...b,
      game: { mobileLegends: true },
      package: b.package,
      clientAmount: b.amount,
    };
  } else if (route === "elephant") {
    const b = await readJson(request, ElitediasOrderInput);
    const game = { supplier: ELITEDIAS_KEY, supplierName: b.supplierGameName };
    input = { ...common, ...b, game, clientAmount: b.amount };
  } else {
    const b = await readJson(request, MoogoldOrderInput);
    const game = { supplier: MOOGOLD_KEY, productId: b.productID };
    input = { ...common, ...b, game, clientAmount: b.amount };
  }
  // The session's reseller, read with the session for this request, is not read again (the
  // body's own `reseller` field, which the spec's clients send, is never trusted).
  const ordering = {
    id: reseller._id,
    name: reseller.name,
    markup: reseller.markup,
    disable_discounts: reseller.disableDiscounts,
  };
  const result = await placeResellerOrder(
    { db: locals.app.db, suppliers: locals.app.suppliers() },
    { ...input, knownReseller: ordering },
    key,
  );
  kickJobs(SUPPLIER_CREATE_JOB);
  return placedOrderResponse(result);
}

/**
 * A placement's answer as its text was made, once: a repeat of its key sends the same bytes and
 * the same 201 Created, since the order it answers with was created by the first, marked
 * `Idempotent-Replayed: true` so a client can tell a replay from a new order.
 */
export function placedOrderResponse(result: PlaceOrderResult): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (result.kind === "repeated") headers["Idempotent-Replayed"] = "true";
  return new Response(result.text, { status: 201, headers });
}
