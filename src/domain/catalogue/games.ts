import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import {
  deleteGameRow,
  findGameRowById,
  findGameRowBySupplierName,
  insertGameRow,
  listGameRows,
  maxGamePriority,
  updateGameRowAtVersion,
} from "../../db/repositories/games.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type {
  GameDto,
  GameItemDto,
  GameLinksDto,
  GamePackageDto,
  ResellerGameDto,
  SupplierKind,
} from "../../shared/game-types.ts";
import type { GameSave } from "./game-schema.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import type { PublicAdmin } from "../auth/users.ts";
import { MOBILE_LEGENDS_GAME } from "../../integrations/elitedias/port.ts";
import { isSupplierKey } from "../../integrations/supplier-registry.ts";
import type { SupplierGame } from "../../integrations/supplier-port.ts";

/** Spec §9: the special game whose orders go through the mlbb packages. */
export const MOBILE_LEGENDS = "Mobile Legends";
export { MLBB_SUPPLIER_NAME } from "../../shared/consumer-storefront.ts";

/** The Mobile Legends game row, by the supplier and the code it is stored under. */
export async function findMobileLegendsRow(db: Db): Promise<GameRow | undefined> {
  const { supplier, supplierName } = MOBILE_LEGENDS_GAME;
  return await findGameRowBySupplierName(db, supplier, supplierName);
}

/** How the game's supplier knows it. */
export function supplierGameOf(game: GameRow): SupplierGame {
  return { supplierName: game.supplier_name, supplierGameId: game.supplier_game_id };
}

const EMPTY_LINKS: GameLinksDto = {
  newMetaUpdateLinks: [],
  generalGuideLinks: [],
  howToPlayLinks: [],
  esportsEventLinks: [],
  memesFunnyLinks: [],
};

/** Shapes a game row as the spec's Game JSON. */
export function presentGame(row: GameRow): GameDto {
  return {
    _id: row.id,
    name: row.name,
    supplierName: row.supplier_name,
    supplier: row.supplier as SupplierKind,
    supplierGameID: row.supplier_game_id ?? "",
    supplierNotes: row.supplier_notes,
    hasPackages: row.has_packages,
    isHidden: row.is_hidden,
    isHiddenConsumer: row.is_hidden_consumer,
    isOutOfStock: row.is_out_of_stock,
    priority: row.priority,
    tagline: row.tagline,
    description: row.description,
    gameImage: row.game_image,
    aboutThisGame: row.about_this_game,
    faq: row.faq,
    platforms: row.platforms,
    requiresServerID: row.requires_server_id,
    requiresCharacterName: row.requires_character_name,
    instructionalImage: row.instructional_image,
    gameCurrency: row.game_currency,
    consumerMarkup: Number(row.consumer_markup),
    resellerMarkup: row.reseller_markup,
    resellerMarkupAll: Number(row.reseller_markup_all),
    markupForIndividualResellers: row.markup_for_individual_resellers,
    servers: row.servers,
    redemptionCodes: row.redemption_codes,
    gameItems: row.game_items as GameItemDto[],
    packages: row.packages as GamePackageDto[],
    links: { ...EMPTY_LINKS, ...row.links } as GameLinksDto,
    officialWebsiteLink: row.official_website_link,
    fandomLink: row.fandom_link,
    redditLink: row.reddit_link,
    version: row.version,
  };
}

/** Who a game is listed to; each has its own hidden flag on every item. */
export type Audience = "reseller" | "consumer";

/** The catalogue parts of a game that decide whether anything in it can be bought. */
export interface GameCatalogueShape {
  hasPackages: boolean;
  gameItems: GameItemDto[];
  packages: GamePackageDto[];
}

/**
 * A game is listed to an audience only when it has an item that audience can pick (in
 * a package that is not hidden, for a game with packages). A game just created with a name only
 * is therefore not listed until an admin gives it items. Out of stock does not count: that game
 * stays listed and shows the spec's out-of-stock banner.
 */
export function isPurchasable(game: GameCatalogueShape, audience: Audience): boolean {
  const listed = (item: GameItemDto) =>
    audience === "reseller" ? !item.isHiddenReseller : !item.isHiddenConsumer;
  if (game.hasPackages) {
    return game.packages.some((p) => !p.isHidden && p.gameItems.some(listed));
  }
  return game.gameItems.some(listed);
}

function catalogueOf(row: GameRow): GameCatalogueShape {
  return {
    hasPackages: row.has_packages,
    gameItems: row.game_items as GameItemDto[],
    packages: row.packages as GamePackageDto[],
  };
}

/** isPurchasable over a stored game row. */
export function isGameRowPurchasable(row: GameRow, audience: Audience): boolean {
  return isPurchasable(catalogueOf(row), audience);
}

/** The game rows an audience may buy from (see isPurchasable), in priority order. */
export function purchasableGames(rows: GameRow[], audience: Audience): GameRow[] {
  return rows.filter((row) => isGameRowPurchasable(row, audience));
}

/** Every game, for the admin console, ordered by priority. */
export async function listGamesForAdmin(db: Db): Promise<GameDto[]> {
  return (await listGameRows(db)).map(presentGame);
}

/**
 * The reseller's games grid: hidden games only for the privileged reseller accounts (spec §2/§6;
 * which accounts is configuration, PRIVILEGED_RESELLERS), and never a game with nothing a
 * reseller can buy.
 */
export async function listGamesForReseller(
  db: Db,
  privileged: boolean,
): Promise<ResellerGameDto[]> {
  return purchasableGames(await listGameRows(db), "reseller")
    .filter((g) => privileged || !g.is_hidden)
    .map((g) => ({
      _id: g.id,
      name: g.name,
      tagline: g.tagline,
      gameImage: g.game_image,
      supplier: g.supplier as SupplierKind,
      supplierName: g.supplier_name,
      supplierGameID: g.supplier_game_id ?? "",
      hasPackages: g.has_packages,
      isOutOfStock: g.is_out_of_stock,
      requiresServerID: g.requires_server_id,
      requiresCharacterName: g.requires_character_name,
      servers: g.servers,
      priority: g.priority,
    }));
}

/** Spec §2 Create Game: a game with only a name; the supplier is 'others' until edited. */
export async function createGame(db: Db, name: string, admin: PublicAdmin): Promise<GameDto> {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError("Game name is required");
  const row = await db.transaction().execute(async (trx) => {
    const priority = (await maxGamePriority(trx)) + 1;
    const created = await insertGameRow(trx, {
      name: trimmed,
      priority,
      faq: "[]",
      platforms: "[]",
      consumer_markup: 0,
      reseller_markup: "{}",
      reseller_markup_all: 0,
      servers: "{}",
      game_items: "[]",
      packages: "[]",
      links: JSON.stringify(EMPTY_LINKS),
      supplier_game_id: null,
    });
    await insertAudit(trx, {
      actorType: "admin",
      actorId: admin._id,
      actorName: admin.name,
      action: "game.create",
      targetType: "game",
      targetId: created.id,
      after: { name: trimmed },
    });
    return created;
  });
  return presentGame(row);
}

function catalogueRules(save: GameSave): void {
  if (save.hasPackages && save.gameItems.length) {
    throw new ValidationError("A game with packages keeps its items inside the packages");
  }
  const names = new Set<string>();
  for (const p of save.packages) {
    if (names.has(p.name)) throw new ValidationError(`Package ${p.name} appears twice`);
    names.add(p.name);
  }
}

/** Spec §2 Edit game: saves details, merchandise, packages, links and settings together. */
export async function saveGame(
  db: Db,
  id: string,
  save: GameSave,
  admin: PublicAdmin,
): Promise<GameDto> {
  const before = await findGameRowById(db, id);
  if (!before) throw new NotFoundError("Game not found");
  catalogueRules(save);
  const row = await updateGameRowAtVersion(db, id, save.version, {
    name: save.name,
    supplier_notes: save.supplierNotes,
    has_packages: save.hasPackages,
    is_hidden: save.isHidden,
    is_hidden_consumer: save.isHiddenConsumer,
    is_out_of_stock: save.isOutOfStock,
    priority: save.priority,
    tagline: save.tagline,
    description: save.description,
    game_image: save.gameImage,
    about_this_game: save.aboutThisGame,
    faq: JSON.stringify(save.faq),
    platforms: JSON.stringify(save.platforms),
    requires_server_id: save.requiresServerID,
    requires_character_name: save.requiresCharacterName,
    instructional_image: save.instructionalImage,
    game_currency: save.gameCurrency,
    consumer_markup: save.consumerMarkup,
    reseller_markup: JSON.stringify(save.resellerMarkup),
    reseller_markup_all: save.resellerMarkupAll,
    markup_for_individual_resellers: save.markupForIndividualResellers,
    servers: JSON.stringify(save.servers),
    redemption_codes: save.redemptionCodes,
    game_items: JSON.stringify(save.gameItems),
    packages: JSON.stringify(save.packages),
    links: JSON.stringify(save.links),
    official_website_link: save.officialWebsiteLink,
    fandom_link: save.fandomLink,
    reddit_link: save.redditLink,
  });
  if (!row) {
    throw new ConflictError("This game was changed by someone else. Reload it and try again.");
  }
  await insertAudit(db, {
    actorType: "admin",
    actorId: admin._id,
    actorName: admin.name,
    action: "game.update",
    targetType: "game",
    targetId: id,
    before: presentGame(before),
    after: presentGame(row),
  });
  return presentGame(row);
}

/** Deletes a game that has no orders; one with orders must be hidden instead. */
export async function deleteGame(db: Db, id: string, admin: PublicAdmin): Promise<void> {
  const before = await findGameRowById(db, id);
  if (!before) throw new NotFoundError("Game not found");
  try {
    await deleteGameRow(db, id);
  } catch (error) {
    if (String((error as Error)?.message).includes("foreign key")) {
      throw new ConflictError("This game has orders. Hide it instead of deleting it.");
    }
    throw error;
  }
  await insertAudit(db, {
    actorType: "admin",
    actorId: admin._id,
    actorName: admin.name,
    action: "game.delete",
    targetType: "game",
    targetId: id,
    before: presentGame(before),
  });
}

/** GET /api/launched_games: the supplier games we sell, for the Suppliers screen and markups. */
export async function listLaunchedGames(db: Db) {
  return (await listGameRows(db))
    .filter((g) => isSupplierKey(g.supplier))
    .map((g) => ({
      _id: g.id,
      name: g.name,
      supplier: g.supplier as SupplierKind,
      supplierName: g.supplier_name,
      supplierGameID: g.supplier_game_id ?? "",
      hasPackages: g.has_packages,
      packageNames: (g.packages as GamePackageDto[]).map((p) => p.supplierPackageName),
    }));
}

/**
 * Each game's named servers by the value its supplier takes ("os_asia" → "Asia"): orders keep the
 * value, and what a person reads (a result page, a lookup, an export) is the name.
 */
export async function serverNamesByGame(db: Db): Promise<Map<string, Map<string, string>>> {
  return new Map(
    (await listGameRows(db)).map((game) => [
      game.id,
      new Map(Object.entries(game.servers as Record<string, string>).map(([l, v]) => [v, l])),
    ]),
  );
}

/** An order's server as a person reads it: its name where its game lists one, else the value. */
export function serverNameOf(
  names: Map<string, Map<string, string>>,
  order: { game_id: string | null; server_id: string },
): string {
  return (order.game_id && names.get(order.game_id)?.get(order.server_id)) || order.server_id;
}
