import type { Db } from "../../db/client.ts";
import { findGameRowById } from "../../db/repositories/games.ts";
import { findResellerPublicById } from "../../db/repositories/resellers.ts";
import type { GameItemDto, GamePackageDto, ResellerItemDto } from "../../shared/game-types.ts";
import { computeResellerPrice, formatResellerItemName, resellerMarkupFor } from "./pricing.ts";
import { centsToDollars } from "../money.ts";
import { NotFoundError } from "../errors.ts";

/** What a reseller sees of one game: its packages (Mobile Legends) or its items, priced for them. */
export interface ResellerGameCatalogue {
  game: { _id: string; name: string; supplierName: string; isOutOfStock: boolean };
  packages: { name: string; isOutOfStock: boolean; gameItems: ResellerItemDto[] }[];
  gameItems: ResellerItemDto[];
}

function priceItems(
  items: GameItemDto[],
  markupPercent: number,
  disableDiscounts: boolean,
  gameCurrency: string,
): ResellerItemDto[] {
  return items
    .filter((item) => !item.isHiddenReseller)
    .map((item) => ({
      key: item.nameSupplier,
      name: formatResellerItemName(item.nameReseller, gameCurrency),
      nameConsumer: item.nameConsumer,
      price: centsToDollars(computeResellerPrice(item, { markupPercent, disableDiscounts })),
      image: item.image,
      isDoubleRecharge: item.isDoubleRecharge,
    }));
}

/**
 * GET /api/resellers/game/{gameId}: the game's items at this reseller's price (cost + markup,
 * discount unless disableDiscounts, rounded up to the cent). Hidden games and hidden items are
 * left out unless the reseller may see hidden games.
 */
export async function resellerCatalogue(
  db: Db,
  resellerId: string,
  gameId: string,
  seesHiddenGames: boolean,
): Promise<ResellerGameCatalogue> {
  const [game, reseller] = await Promise.all([
    findGameRowById(db, gameId),
    findResellerPublicById(db, resellerId),
  ]);
  if (!game || !reseller || (game.is_hidden && !seesHiddenGames)) {
    throw new NotFoundError("Game not found");
  }
  const who = { name: reseller.name, markup: reseller.markup };
  const packages = (game.packages as GamePackageDto[])
    .filter((p) => !p.isHidden)
    .map((p) => ({
      name: p.name,
      isOutOfStock: p.isOutOfStock,
      gameItems: priceItems(
        p.gameItems,
        resellerMarkupFor(who, p.name),
        reseller.disable_discounts,
        game.game_currency,
      ),
    }));
  return {
    game: {
      _id: game.id,
      name: game.name,
      supplierName: game.supplier_name,
      isOutOfStock: game.is_out_of_stock,
    },
    packages,
    gameItems: priceItems(
      game.game_items as GameItemDto[],
      resellerMarkupFor(who, game.supplier_name, game),
      reseller.disable_discounts,
      game.game_currency,
    ),
  };
}
