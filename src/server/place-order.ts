import type { APIContext } from "astro";
import {
  type PlaceOrderInput,
  type PlaceOrderResult,
  placeResellerOrder,
  SUPPLIER_CREATE_JOB,
} from "../domain/orders/place.ts";
import { kickJobs } from "../domain/jobs.ts";
import { readJson, requireReseller } from "./http.ts";
import {
  ElitediasOrderInput,
  idempotencyKeyOf,
  MlbbOrderInput,
  MoogoldOrderInput,
} from "./order-inputs.ts";

/** Shared by the three place-order routes (spec §7 Reseller). */
export async function handlePlaceOrder(
  { locals, request }: APIContext,
  kind: PlaceOrderInput["kind"],
): Promise<Response> {
  const reseller = requireReseller(locals);
  const key = idempotencyKeyOf(request);
  const common = {
    kind,
    resellerId: reseller._id,
    seesHiddenGames: locals.app.config.privilegedResellers.includes(reseller.email),
  };
  let input: PlaceOrderInput;
  if (kind === "mlbb") {
    const b = await readJson(request, MlbbOrderInput);
    input = { ...common, ...b, package: b.package, clientAmount: b.amount };
  } else if (kind === "elephant") {
    const b = await readJson(request, ElitediasOrderInput);
    input = { ...common, ...b, clientAmount: b.amount };
  } else {
    const b = await readJson(request, MoogoldOrderInput);
    input = { ...common, ...b, clientAmount: b.amount };
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
 * the same 201 Created, since the order it answers with was created by the first.
 */
export function placedOrderResponse(result: PlaceOrderResult): Response {
  return new Response(result.text, {
    status: 201,
    headers: { "content-type": "application/json" },
  });
}
