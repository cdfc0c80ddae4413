import type { Suppliers } from "../../integrations/suppliers.ts";
import type { SupplierResult } from "../../integrations/fetch-json.ts";
import { UpstreamError, ValidationError } from "../errors.ts";

// The admin's window on the suppliers' catalogues (spec §2 Suppliers, §7 Admin): each answer in the
// spec's shape, each failure as the spec's text.

function unwrap<T>(result: SupplierResult<T>, failure: string): T {
  if (!result.ok) throw new UpstreamError(failure, { cause: `${result.kind}: ${result.message}` });
  return result.value;
}

/**
 * A lookup of what the admin typed (a game code, a product id): the supplier refusing it is the
 * admin's input being wrong, a 400 with the supplier's reason; only an unreachable or garbled
 * supplier is a 502.
 */
function unwrapLookup<T>(result: SupplierResult<T>, failure: string): T {
  if (!result.ok && result.kind === "supplier") {
    throw new ValidationError(failure, { cause: `supplier: ${result.message}` });
  }
  return unwrap(result, failure);
}

/** Turns a decimal price text into the JSON number the spec's screens show. */
function priceNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new UpstreamError("Supplier sent a price that is not a number");
  return n;
}

function productId(value: string | number): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ValidationError("productID must be a number");
  return id;
}

/** GET /api/available_games/ed: EliteDias game codes. */
export async function listElitediasGames(s: Suppliers): Promise<string[]> {
  return unwrap(await s.elitedias.gamesAvailable(), "Fail to get ED games");
}

/** GET /api/available_games/mg: MooGold direct top-up products as {ID, post_title}. */
export async function listMoogoldGames(
  s: Suppliers,
): Promise<{ ID: string; post_title: string }[]> {
  const products = unwrap(await s.moogold.listProducts(50), "Fail to get MG games");
  return products
    .map((p) => ({ ID: String(p.id), post_title: p.title }))
    .sort((a, b) => a.post_title.localeCompare(b.post_title));
}

/** POST /api/denominations/ed: denomination → cost, or {code: "403"} when there are none. */
export async function elitediasDenominations(
  s: Suppliers,
  game: string,
): Promise<Record<string, number> | { code: "403" }> {
  const map = unwrapLookup(await s.elitedias.denominations(game), "Fail to get ED denominations");
  const entries = Object.entries(map);
  if (!entries.length) return { code: "403" };
  return Object.fromEntries(entries.map(([name, price]) => [name, priceNumber(price)]));
}

/** POST /api/game_fields/ed: {fields: {fields, notes}}. */
export async function elitediasGameFields(s: Suppliers, game: string) {
  const info = unwrapLookup(await s.elitedias.gameFields(game), "Fail to get ED game fields");
  return { fields: { fields: info.fields, notes: info.notes } };
}

/** POST /api/server_list/ed: {servers}. */
export async function elitediasServers(s: Suppliers, game: string) {
  return {
    servers: unwrapLookup(await s.elitedias.serverList(game), "Fail to get ED server list"),
  };
}

/** POST /api/product_detail/mg: {Product_Name, Image_URL, Variation, fields}. */
export async function moogoldProductDetail(s: Suppliers, id: string | number) {
  const d = unwrapLookup(
    await s.moogold.productDetail(productId(id)),
    "Fail to get MG product detail",
  );
  return {
    Product_Name: d.name,
    Image_URL: d.imageUrl,
    Variation: d.variations.map((v) => ({
      variation_id: v.id,
      variation_name: v.name,
      variation_price: priceNumber(v.price),
    })),
    fields: d.fields,
  };
}

/** POST /api/server_list/mg: a label → value map, or MooGold's text for "no list". */
export async function moogoldServers(s: Suppliers, id: string | number) {
  const list = unwrapLookup(
    await s.moogold.serverList(productId(id)),
    "Fail to get MG server list",
  );
  return list ?? "Product has no server list";
}
