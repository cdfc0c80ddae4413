import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { countLaunchedGames, insertGameRow } from "../../db/repositories/games.ts";
import { setResellerMarkupKey } from "../../db/repositories/resellers.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { SupplierOffer } from "../../integrations/supplier-port.ts";
import { SUPPLIER_KEYS, supplierPort } from "../../integrations/supplier-registry.ts";
import type { GameDto, GameItemDto } from "../../shared/game-types.ts";
import { GameItemSchema } from "./game-schema.ts";
import { presentGame } from "./games.ts";
import { ConflictError, UpstreamError } from "../errors.ts";
import { parseDecimal } from "../money.ts";

export const LAUNCH_FAILED = "Error launching game";

/** Who launches: a signed-in admin, or the system (demo seeding) with no id. */
export interface Actor {
  _id: string | null;
  name: string;
}

/** POST /api/launch_game body (spec §7); costs in gameItems are re-read from the supplier. */
export const LaunchGameSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(200),
  tagline: z.string().max(300).default(""),
  supplier: z.enum(SUPPLIER_KEYS),
  supplierName: z.string().trim().min(1).max(200),
  supplierNotes: z.string().max(10_000).default(""),
  supplierGameID: z.union([z.string(), z.number()]).transform(String).default(""),
  gameItems: z.array(GameItemSchema.partial({ cost: true })).max(500).default([]),
  consumerMarkup: z.number().min(0).max(10_000).default(0),
  resellerMarkup: z.record(z.string().max(200), z.number().min(0).max(10_000)).default({}),
  resellerMarkupAll: z.number().min(0).max(10_000).default(0),
  markupForIndividualResellers: z.boolean().default(false),
  requiresServerID: z.boolean().default(false),
  requiresCharacterName: z.boolean().default(false),
  priority: z.number().int().min(0).optional(),
  servers: z.record(z.string().max(200), z.string().max(200)).default({}),
  gameImage: z.string().max(2000).default(""),
  isHidden: z.boolean().default(false),
  gameCurrency: z.string().max(50).default(""),
});

export type LaunchGame = z.output<typeof LaunchGameSchema>;

/** A supplier's current offer: selection key → {cost text, default display name, its own id}. */
type Offer = SupplierOffer;

/** Reads what the supplier sells now; prices never come from the browser. */
export async function readSupplierOffer(
  suppliers: Suppliers,
  supplier: string,
  supplierName: string,
  supplierGameID: string,
): Promise<Offer | null> {
  const port = supplierPort(suppliers, supplier);
  return port ? await port.readOffer({ supplierName, supplierGameId: supplierGameID }) : null;
}

/**
 * The supplier's named servers for a game (label → value), read the way the admin's Suppliers
 * screen reads them (POST /api/server_list/ed and /mg); empty when the game has no list, null
 * when the supplier did not answer.
 */
export async function readSupplierServers(
  suppliers: Suppliers,
  supplier: string,
  supplierName: string,
  supplierGameID: string,
): Promise<Record<string, string> | null> {
  const port = supplierPort(suppliers, supplier);
  return port ? await port.readServers({ supplierName, supplierGameId: supplierGameID }) : null;
}

/** True for a supplier price of zero: spec §5, launch skips those variations. */
function isFree(cost: string): boolean {
  return parseDecimal(cost).units === 0n;
}

/** A new item for a supplier selection, every toggle off (spec §3 Game item). */
export function newGameItem(
  key: string,
  offer: { cost: string; name: string; id?: string },
): GameItemDto {
  return {
    ...(offer.id ? { id: offer.id } : {}),
    nameReseller: offer.name,
    nameConsumer: { header: offer.name, subheader: "" },
    nameSupplier: key,
    cost: Number(offer.cost),
    image: "",
    isHiddenConsumer: false,
    isHiddenReseller: false,
    isDiscountedConsumer: false,
    discountRateConsumer: 0,
    isDiscountedReseller: false,
    discountRateReseller: 0,
    isDoubleRecharge: false,
  };
}

function itemsFromOffer(input: LaunchGame, offer: Offer): GameItemDto[] {
  const chosen = input.gameItems.length
    ? input.gameItems.map((item) => ({ item, offer: offer.get(item.nameSupplier) }))
    : [...offer].map(([key, o]) => ({ item: undefined, offer: o, key }));
  const items: GameItemDto[] = [];
  for (const entry of chosen) {
    if (!entry.offer || isFree(entry.offer.cost)) continue;
    const key = entry.item?.nameSupplier ?? (entry as { key: string }).key;
    const base = newGameItem(key, entry.offer);
    items.push(entry.item ? { ...base, ...entry.item, cost: base.cost, id: base.id } : base);
  }
  return items;
}

/**
 * Spec §5 launch: a supplier game becomes a game of ours, priced from the supplier's current
 * costs (variations priced 0 skipped), priority = launched count + 1, and the reseller markup for
 * it written into each reseller's markup map, all in one transaction.
 */
export async function launchGame(
  db: Db,
  suppliers: Suppliers,
  input: LaunchGame,
  actor: Actor,
): Promise<GameDto> {
  const offer = await readSupplierOffer(
    suppliers,
    input.supplier,
    input.supplierName,
    input.supplierGameID,
  );
  if (!offer) throw new UpstreamError(LAUNCH_FAILED);
  const gameItems = itemsFromOffer(input, offer);
  if (!gameItems.length) throw new UpstreamError(`${LAUNCH_FAILED}: the supplier offers no items`);
  // Spec §2: a game with a server list is ordered from a dropdown of its named servers, and the
  // supplier only accepts its own values, so a launch without servers takes the supplier's list.
  const servers = Object.keys(input.servers).length ? input.servers : await readSupplierServers(
    suppliers,
    input.supplier,
    input.supplierName,
    input.supplierGameID,
  );
  if (!servers) throw new UpstreamError(LAUNCH_FAILED);
  const hasServers = Object.keys(servers).length > 0;

  const row = await db.transaction().execute(async (trx) => {
    const launched = await countLaunchedGames(trx);
    const created = await insertGameRow(trx, {
      name: input.name,
      tagline: input.tagline,
      supplier: input.supplier,
      supplier_name: input.supplierName,
      supplier_notes: input.supplierNotes,
      supplier_game_id: input.supplierGameID || null,
      priority: launched + 1,
      consumer_markup: input.consumerMarkup,
      reseller_markup: JSON.stringify(input.resellerMarkup),
      reseller_markup_all: input.resellerMarkupAll,
      markup_for_individual_resellers: input.markupForIndividualResellers,
      requires_server_id: input.requiresServerID || hasServers,
      requires_character_name: input.requiresCharacterName,
      servers: JSON.stringify(servers),
      game_image: input.gameImage,
      is_hidden: input.isHidden,
      game_currency: input.gameCurrency,
      game_items: JSON.stringify(gameItems),
      packages: "[]",
      faq: "[]",
      platforms: "[]",
      links: "{}",
    }).catch((error) => {
      if (String(error?.message).includes("games_supplier_game")) {
        throw new ConflictError("This game has already been launched");
      }
      throw error;
    });
    if (input.markupForIndividualResellers) {
      for (const [name, percent] of Object.entries(input.resellerMarkup)) {
        await setResellerMarkupKey(trx, input.supplierName, percent, [name]);
      }
    } else {
      await setResellerMarkupKey(trx, input.supplierName, input.resellerMarkupAll);
    }
    await insertAudit(trx, {
      actorType: actor._id ? "admin" : "system",
      actorId: actor._id ?? undefined,
      actorName: actor.name,
      action: "game.launch",
      targetType: "game",
      targetId: created.id,
      after: {
        supplier: input.supplier,
        supplierName: input.supplierName,
        items: gameItems.length,
      },
    });
    return created;
  });
  return presentGame(row);
}
