import { dollarsToDollarString } from "../../lib/format.ts";
import type {
  LaunchBody,
  LaunchedGame,
  LaunchFormValues,
  SupplierDetail,
  SupplierGame,
  SupplierItem,
} from "./types.ts";

/**
 * Spec §2: a supplier game is launched when a launched game has its supplier and supplierName,
 * or sells it as one of its packages (mlbb_special and mlbb_global inside Mobile Legends).
 */
export function isLaunched(launched: LaunchedGame[], game: SupplierGame): boolean {
  return launched.some((g) =>
    g.supplier === game.supplier &&
    (g.supplierName === game.supplierName || g.packageNames.includes(game.supplierName))
  );
}

/**
 * A game of the same name already launched from another supplier (one without packages), whose
 * items this supplier's can follow as second routes instead of a second game.
 */
export function soldElsewhere(
  launched: LaunchedGame[],
  game: SupplierGame,
): LaunchedGame | undefined {
  const name = game.title.trim().toLowerCase();
  return launched.find((g) =>
    g.supplier !== game.supplier && !g.hasPackages && g.name.trim().toLowerCase() === name
  );
}

/** Case-insensitive substring match; an empty search matches everything. */
export function matchesSearch(text: string, search: string): boolean {
  return text.toLowerCase().includes(search.trim().toLowerCase());
}

function priceNumber(price: number | string): number {
  return typeof price === "number" ? price : price.trim() === "" ? NaN : Number(price);
}

/** Spec §2 Denominations: a dollar amount with 2 decimals when numeric ($0.24), else as sent. */
export function formatPrice(price: number | string): string {
  const amount = priceNumber(price);
  return Number.isFinite(amount) ? dollarsToDollarString(amount) : String(price);
}

/** The items a launch sends: spec §5 skips variations priced 0 (the server skips them too). */
export function launchableItems(items: SupplierItem[]): SupplierItem[] {
  return items.filter((item) => priceNumber(item.price) > 0);
}

/**
 * The POST /api/launch_game body (spec §7). Markups go as numbers (spec §5); the server re-reads
 * every cost from the supplier and sets the priority itself.
 */
export function buildLaunchBody(
  game: SupplierGame,
  detail: SupplierDetail,
  form: LaunchFormValues,
  resellerNames: string[],
  priority: number,
): LaunchBody {
  // One percent per reseller, a blank field counting as 0, like every other markup field.
  const resellerMarkup = form.markupForIndividualResellers
    ? Object.fromEntries(
      resellerNames.map((name) => [name, Number(form.resellerMarkup[name] ?? "")]),
    )
    : {};
  return {
    name: form.name.trim(),
    tagline: form.tagline,
    supplier: game.supplier,
    supplierName: game.supplierName,
    supplierNotes: detail.notes,
    supplierGameID: game.supplierGameID,
    gameItems: launchableItems(detail.items).map((item) => ({
      ...(item.id ? { id: item.id } : {}),
      nameSupplier: item.nameSupplier,
      nameReseller: item.nameReseller,
      nameConsumer: { header: item.nameReseller, subheader: "" },
      cost: priceNumber(item.price),
    })),
    consumerMarkup: Number(form.consumerMarkup),
    resellerMarkup,
    resellerMarkupAll: Number(form.resellerMarkupAll),
    markupForIndividualResellers: form.markupForIndividualResellers,
    // EliteDias asks for "serverid", MooGold for a label such as "Server".
    requiresServerID: detail.fields.some((field) => /server/i.test(field)),
    requiresCharacterName: detail.fields.some((field) => /character[\s_]*name/i.test(field)),
    priority,
    servers: detail.servers,
    gameImage: detail.imageUrl,
    isHidden: false,
    gameCurrency: form.gameCurrency.trim(),
  };
}
