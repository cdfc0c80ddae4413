// What the consumer storefront lists and prices (spec §2 /consumers and the top-up page). Prices
// come from pricing.ts with the consumer markup and discounts, the same rule the payment call
// charges; items hidden for consumers never leave the server.

import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import {
  findGameRowBySupplierName,
  gamesFingerprint,
  gameWritesInThisProcess,
  listGameRows,
} from "../../db/repositories/games.ts";
import type { GameItemDto, GamePackageDto } from "../../shared/game-types.ts";
import type { ConsumerItemDto, ConsumerPackageDto } from "../../shared/consumer-storefront.ts";
import { isGameRowPurchasable, MLBB_SUPPLIER_NAME } from "./games.ts";
import { centsToDollars } from "../money.ts";
import { computeConsumerPrice, consumerMarkupFor, formatResellerItemName } from "./pricing.ts";

/**
 * The consumer top-up page of each game consumers can pay for, by the game's supplier name. Only
 * Mobile Legends has a consumer payment call (spec §7 /payment/{provider}/mlbb).
 */
const CONSUMER_TOP_UP_PAGES: Record<string, string> = {
  [MLBB_SUPPLIER_NAME]: "/consumers/mobile-legends",
};

/** A card of the /consumers grid. */
export interface ConsumerGameCard {
  name: string;
  tagline: string;
  image: string;
  /** The game's top-up page. */
  href: string;
}

/** The Mobile Legends top-up page's data: the game and every package's consumer items. */
export interface MlbbConsumerCatalogue {
  game: { name: string; tagline: string; image: string; isOutOfStock: boolean };
  packages: ConsumerPackageDto[];
}

/** The item as the consumer sees it: its consumer header and subheader, digits with the currency. */
export function consumerItemName(item: GameItemDto, gameCurrency: string): string {
  const header = consumerItemHeader(item, gameCurrency);
  return [header, item.nameConsumer.subheader.trim()].filter(Boolean).join(" ");
}

function consumerItemHeader(item: GameItemDto, gameCurrency: string): string {
  return formatResellerItemName(item.nameConsumer.header.trim() || item.nameReseller, gameCurrency);
}

function consumerItems(game: GameRow, items: GameItemDto[], pkg?: GamePackageDto) {
  const markupPercent = consumerMarkupFor(game, pkg);
  return items.filter((item) => !item.isHiddenConsumer).map((item): ConsumerItemDto => {
    const priceCents = computeConsumerPrice(item, { markupPercent });
    const listCents = computeConsumerPrice({ cost: item.cost }, { markupPercent });
    return {
      key: item.nameSupplier,
      name: consumerItemName(item, game.game_currency),
      header: consumerItemHeader(item, game.game_currency),
      subheader: item.nameConsumer.subheader.trim(),
      price: centsToDollars(priceCents),
      listPrice: listCents > priceCents ? centsToDollars(listCents) : null,
      image: item.image,
      isDoubleRecharge: item.isDoubleRecharge,
    };
  });
}

/**
 * Whether consumers can buy the game: it has a consumer top-up page, is not hidden, and has an item
 * consumers can pick (games.ts isGameRowPurchasable, the rule the reseller grid uses too).
 */
function isPurchasableForConsumers(game: GameRow): boolean {
  return game.supplier_name in CONSUMER_TOP_UP_PAGES && !game.is_hidden &&
    isGameRowPurchasable(game, "consumer");
}

/**
 * What the consumer storefront's pages are made of: they read the games table alone, so this
 * changes exactly when one of them may (the page cache of cli/serve.ts renders again then).
 */
export async function consumerCatalogueVersion(db: Db): Promise<string> {
  return await gamesFingerprint(db);
}

/**
 * How many writes this process has made to what the consumer pages are made of: the page cache
 * reads `consumerCatalogueVersion` again at once when this moves.
 */
export function consumerCatalogueWritesHere(): number {
  return gameWritesInThisProcess();
}

/** GET /consumers: the games a consumer can buy, in the catalogue's priority order. */
export async function listConsumerGames(db: Db): Promise<ConsumerGameCard[]> {
  return (await listGameRows(db))
    .filter(isPurchasableForConsumers)
    .map((game) => ({
      name: game.name,
      tagline: game.tagline,
      image: game.game_image,
      href: CONSUMER_TOP_UP_PAGES[game.supplier_name],
    }));
}

/**
 * The Mobile Legends top-up page: every package's consumer items at the consumer price. Which
 * package an account buys from is decided on Verify (verification.ts). Undefined when consumers
 * cannot buy the game.
 */
export async function mlbbConsumerCatalogue(db: Db): Promise<MlbbConsumerCatalogue | undefined> {
  const game = await findGameRowBySupplierName(db, "elephant", MLBB_SUPPLIER_NAME);
  if (!game || !isPurchasableForConsumers(game)) return undefined;
  return {
    game: {
      name: game.name,
      tagline: game.tagline,
      image: game.game_image,
      isOutOfStock: game.is_out_of_stock,
    },
    packages: (game.packages as GamePackageDto[]).map((pkg) => ({
      name: pkg.name,
      isOutOfStock: pkg.isOutOfStock,
      items: consumerItems(game, pkg.gameItems, pkg),
    })),
  };
}
