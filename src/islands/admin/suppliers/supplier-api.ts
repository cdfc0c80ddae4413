import { callApi } from "../../lib/api.ts";
import { elitediasGameName } from "../../../shared/supplier-games.ts";
import type { GameDto } from "../../../shared/game-types.ts";
import type {
  LaunchBody,
  LaunchedGame,
  Supplier,
  SupplierDetail,
  SupplierGame,
  SupplierItem,
} from "./types.ts";

/** Spec §8 failure texts of the Suppliers screen. */
export const FAILURE = {
  edGames: "Fail to get ED games",
  mgGames: "Fail to get MG games",
  edDenominations: "Fail to get ED denominations",
  mgProductDetail: "Fail to get MG product detail",
  launch: "Error launching game",
} as const;

// The spec names no text for these calls; these follow its 'Fail to get …' wording and match
// what the server answers.
const ED_FIELDS_FAILED = "Fail to get ED game fields";
const ED_SERVERS_FAILED = "Fail to get ED server list";
const MG_SERVERS_FAILED = "Fail to get MG server list";
const LAUNCHED_FAILED = "Fail to get launched games";
const RESELLERS_FAILED = "Fail to get resellers";

/** A reseller as the launch form needs it (GET /api/resellers sends more). */
export interface ResellerName {
  _id: string;
  name: string;
}

/** Awaits a call; any failure becomes an Error whose message is the screen's text for it. */
async function orFail<T>(call: Promise<T>, text: string): Promise<T> {
  try {
    return await call;
  } catch (cause) {
    throw new Error(text, { cause });
  }
}

/** The supplier's games: EliteDias codes as listed, MooGold products sorted by title. */
export async function fetchSupplierGames(supplier: Supplier): Promise<SupplierGame[]> {
  if (supplier === "elephant") {
    const codes = await orFail(
      callApi<string[]>("GET", "/api/available_games/ed"),
      FAILURE.edGames,
    );
    return codes.map((code) => ({
      supplier,
      supplierName: code,
      title: elitediasGameName(code),
      supplierGameID: "",
    }));
  }
  const products = await orFail(
    callApi<{ ID: string | number; post_title: string }[]>("GET", "/api/available_games/mg"),
    FAILURE.mgGames,
  );
  return products
    .map((p) => ({
      supplier,
      supplierName: p.post_title,
      title: p.post_title,
      supplierGameID: String(p.ID),
    }))
    .sort((a, b) => a.supplierName.localeCompare(b.supplierName));
}

async function fetchElitediasDetail(code: string): Promise<SupplierDetail> {
  const body = { game: code };
  const [denominations, info, list] = await Promise.all([
    orFail(
      callApi<Record<string, number | string>>("POST", "/api/denominations/ed", body),
      FAILURE.edDenominations,
    ),
    orFail(
      callApi<{ fields?: { fields?: string[]; notes?: string } }>(
        "POST",
        "/api/game_fields/ed",
        body,
      ),
      ED_FIELDS_FAILED,
    ),
    orFail(
      callApi<{ servers?: Record<string, string> }>("POST", "/api/server_list/ed", body),
      ED_SERVERS_FAILED,
    ),
  ]);
  // Spec §7: {code: "403"} means the game has no denominations.
  const entries = denominations.code === "403" ? [] : Object.entries(denominations);
  return {
    title: elitediasGameName(code),
    imageUrl: "",
    items: entries.map(([name, price]) => ({ nameSupplier: name, nameReseller: name, price })),
    fields: info.fields?.fields ?? [],
    servers: list.servers ?? {},
    notes: info.fields?.notes ?? "",
  };
}

interface MoogoldProduct {
  Product_Name: string;
  Image_URL: string;
  Variation: { variation_id: number | string; variation_name: string; variation_price: number }[];
  fields: string[];
}

async function fetchMoogoldDetail(game: SupplierGame): Promise<SupplierDetail> {
  const body = { productID: game.supplierGameID };
  const [product, list] = await Promise.all([
    orFail(
      callApi<MoogoldProduct>("POST", "/api/product_detail/mg", body),
      FAILURE.mgProductDetail,
    ),
    orFail(
      callApi<Record<string, string> | string>("POST", "/api/server_list/mg", body),
      MG_SERVERS_FAILED,
    ),
  ]);
  const prefix = `${product.Product_Name} - `;
  const items: SupplierItem[] = product.Variation.map((v) => ({
    nameSupplier: v.variation_name,
    nameReseller: v.variation_name.startsWith(prefix)
      ? v.variation_name.slice(prefix.length)
      : v.variation_name,
    price: v.variation_price,
    id: String(v.variation_id),
  }));
  return {
    title: product.Product_Name || game.supplierName,
    imageUrl: product.Image_URL ?? "",
    items,
    fields: product.fields ?? [],
    // A text answer ('Product has no server list', 'Enter from Website') means no list (spec §7).
    servers: typeof list === "object" && list !== null ? list : {},
    notes: "",
  };
}

/** Everything the detail screen shows of a supplier game. */
export function fetchSupplierDetail(game: SupplierGame): Promise<SupplierDetail> {
  return game.supplier === "elephant"
    ? fetchElitediasDetail(game.supplierName)
    : fetchMoogoldDetail(game);
}

/** The games already launched from either supplier. */
export function fetchLaunchedGames(): Promise<LaunchedGame[]> {
  return orFail(callApi<LaunchedGame[]>("GET", "/api/launched_games"), LAUNCHED_FAILED);
}

/** The resellers, for the per-reseller markup fields. */
export function fetchResellers(): Promise<ResellerName[]> {
  return orFail(callApi<ResellerName[]>("GET", "/api/resellers"), RESELLERS_FAILED);
}

/** Launches the game; answers the launched-games entry of the game the server created. */
export async function launchGame(body: LaunchBody): Promise<LaunchedGame> {
  const game = await orFail(callApi<GameDto>("POST", "/api/launch_game", body), FAILURE.launch);
  return {
    _id: game._id,
    name: game.name,
    supplier: game.supplier,
    supplierName: game.supplierName,
    supplierGameID: game.supplierGameID,
    hasPackages: game.hasPackages,
    packageNames: game.packages.map((p) => p.supplierPackageName),
  };
}
