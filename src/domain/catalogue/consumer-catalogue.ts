// What the consumer storefront lists and prices (spec §2 /consumers and the top-up pages:
// every game consumers can buy has its page at /consumers/{slug}). Prices come from pricing.ts
// with the consumer markup and discounts, the same rule the payment call charges; items hidden
// for consumers never leave the server.

import { publicOrigin } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import {
  gamesFingerprint,
  gameWritesInThisProcess,
  listGameRows,
} from "../../db/repositories/games.ts";
import type {
  GameItemDto,
  GameLinksDto,
  GamePackageDto,
  NamedLink,
} from "../../shared/game-types.ts";
import {
  accountHelpText,
  type ConsumerGameCard,
  type ConsumerGameForm,
  type ConsumerGamePage,
  type ConsumerItemDto,
  type ConsumerLinkList,
  type ConsumerPackageDto,
  consumerPageSlug,
} from "../../shared/consumer-storefront.ts";
import { supplierProfile } from "../../integrations/supplier-registry.ts";
import { MOBILE_LEGENDS_GAME } from "../../integrations/elitedias/port.ts";
import {
  findMobileLegendsRow,
  isGameRowPurchasable,
  MLBB_SUPPLIER_NAME,
  supplierGameOf,
} from "./games.ts";
import { centsToDollars } from "../money.ts";
import { escapeHtml } from "../../shared/html.ts";
import { computeConsumerPrice, consumerMarkupFor, formatResellerItemName } from "./pricing.ts";
import { storePoliciesVersion, storePolicyWritesHere } from "./store-policies.ts";

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

/** Whether the game is Mobile Legends, bought by packages through the spec §4 decision. */
export function isMobileLegends(game: GameRow): boolean {
  return game.supplier === MOBILE_LEGENDS_GAME.supplier &&
    game.supplier_name === MOBILE_LEGENDS_GAME.supplierName;
}

/**
 * Whether a supplier can take the game's orders (EliteDias by its game code, MooGold by its
 * product id). Other games have no supplier to send a paid order to.
 */
function hasSupplier(game: GameRow): boolean {
  return supplierProfile(game.supplier)?.takesOrdersFor(supplierGameOf(game)) ?? false;
}

/**
 * Whether consumers can buy the game: a supplier takes its orders, it is hidden neither from
 * everyone nor from consumers, and it has an item consumers can pick (games.ts
 * isGameRowPurchasable, the rule the reseller grid uses too). Packages are Mobile Legends' only:
 * any other game is ordered from its own items, as the reseller path does.
 */
function isPurchasableForConsumers(game: GameRow): boolean {
  return hasSupplier(game) && !game.is_hidden && !game.is_hidden_consumer &&
    (isMobileLegends(game) || !game.has_packages) && isGameRowPurchasable(game, "consumer");
}

const slugOf = (game: GameRow) =>
  consumerPageSlug({ id: game.id, name: game.name, supplierName: game.supplier_name });

/**
 * Whether a path is one of the storefront pages that are the same for every visitor: /consumers,
 * a game's page and a policy page. Not /consumers/order, which reads its query string.
 */
export function isConsumerStorefrontPath(path: string): boolean {
  return path === "/consumers" ||
    (/^\/consumers\/[a-z0-9-]+$/.test(path) && path !== "/consumers/order");
}

/**
 * What the consumer storefront's pages are made of: the games table and, in every page's footer,
 * the store policies; this changes exactly when one of them may (the page cache of cli/serve.ts
 * renders again then).
 */
export async function consumerCatalogueVersion(db: Db): Promise<string> {
  const [games, policies] = await Promise.all([gamesFingerprint(db), storePoliciesVersion(db)]);
  return `${games}/${policies}`;
}

/**
 * How many writes this process has made to what the consumer pages are made of: the page cache
 * reads `consumerCatalogueVersion` again at once when this moves.
 */
export function consumerCatalogueWritesHere(): number {
  return gameWritesInThisProcess() + storePolicyWritesHere();
}

/** GET /consumers: the games a consumer can buy, in the catalogue's priority order. */
export async function listConsumerGames(db: Db): Promise<ConsumerGameCard[]> {
  return (await listGameRows(db))
    .filter(isPurchasableForConsumers)
    .map((game) => ({
      name: game.name,
      tagline: game.tagline,
      image: game.game_image,
      href: `/consumers/${slugOf(game)}`,
      isOutOfStock: game.is_out_of_stock,
    }));
}

/**
 * /sitemap.xml: the consumer landing page and every game consumers can buy, at absolute URLs on
 * this site's origin (publicOrigin: PUBLIC_URL in production). Hidden games are not listed.
 */
export async function consumerSitemap(db: Db): Promise<string> {
  const slugs = (await listGameRows(db)).filter(isPurchasableForConsumers).map(slugOf);
  const urls = ["/consumers", ...slugs.map((slug) => `/consumers/${slug}`)]
    .map((path) => `  <url><loc>${escapeHtml(`${publicOrigin()}${path}`)}</loc></url>`);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`,
    ...urls,
    `</urlset>`,
    "",
  ].join("\n");
}

/**
 * The game behind a consumer call or page: `key` is a page slug, or "mlbb" (the spec's
 * /consumers/verify_id/mlbb and /payment/{provider}/mlbb). Undefined when consumers cannot buy
 * it; `includeHidden` (an admin's preview) also finds a game hidden from consumers.
 */
export async function findConsumerGameRow(
  db: Db,
  key: string,
  options: { includeHidden?: boolean } = {},
): Promise<GameRow | undefined> {
  const game = key === MLBB_SUPPLIER_NAME
    ? await findMobileLegendsRow(db)
    : (await listGameRows(db)).find((row) => slugOf(row) === key);
  if (!game) return undefined;
  const buyable = options.includeHidden
    ? isPurchasableForConsumers({ ...game, is_hidden: false, is_hidden_consumer: false })
    : isPurchasableForConsumers(game);
  return buyable ? game : undefined;
}

const LINK_LIST_TITLES: [keyof GameLinksDto, string][] = [
  ["newMetaUpdateLinks", "New meta and updates"],
  ["generalGuideLinks", "Guides"],
  ["howToPlayLinks", "How to play"],
  ["esportsEventLinks", "Esports events"],
  ["memesFunnyLinks", "Memes and fun"],
];

const filled = (links: NamedLink[]) => links.filter((l) => l.name.trim() && l.link.trim());

function consumerForm(game: GameRow): ConsumerGameForm {
  const fields = {
    name: game.name,
    requiresServerID: game.requires_server_id,
    // The servers map is stored as JSONB, which keeps no key order: list them by name.
    servers: Object.entries(game.servers ?? {}).sort(([a], [b]) => a.localeCompare(b)),
    requiresCharacterName: game.requires_character_name,
  };
  return {
    apiKey: isMobileLegends(game) ? MLBB_SUPPLIER_NAME : slugOf(game),
    ...fields,
    help: {
      text: accountHelpText(fields),
      // The supplier's notes say where its ID is and which accounts it serves (EliteDias's game
      // fields notes); the admin keeps them in Edit game › Settings, so they are the shop's words.
      note: game.supplier_notes.trim(),
      image: game.instructional_image,
    },
  };
}

function consumerPackages(game: GameRow): ConsumerPackageDto[] {
  if (!isMobileLegends(game)) {
    const items = consumerItems(game, game.game_items as GameItemDto[]);
    return [{ name: "", isOutOfStock: game.is_out_of_stock, items }];
  }
  return (game.packages as GamePackageDto[]).map((pkg) => ({
    name: pkg.name,
    isOutOfStock: pkg.isOutOfStock,
    items: consumerItems(game, pkg.gameItems, pkg),
  }));
}

/**
 * A game's consumer page (/consumers/{slug}), or undefined when consumers cannot buy it. Mobile
 * Legends shows its standard package's items until Verify decides the account's package
 * (verification.ts); any other game shows its own items.
 */
export async function consumerGamePage(
  db: Db,
  slug: string,
  options: { includeHidden?: boolean } = {},
): Promise<ConsumerGamePage | undefined> {
  const game = await findConsumerGameRow(db, slug, options);
  if (!game || slugOf(game) !== slug) return undefined;
  const packages = consumerPackages(game);
  const links = game.links as Partial<GameLinksDto>;
  const siteLinks: ConsumerLinkList = {
    title: "Official and community sites",
    links: [
      { name: "Official website", link: game.official_website_link },
      { name: "Fandom wiki", link: game.fandom_link },
      { name: "Reddit", link: game.reddit_link },
    ],
  };
  return {
    slug,
    name: game.name,
    tagline: game.tagline,
    description: game.description,
    currency: game.game_currency,
    image: game.game_image,
    isOutOfStock: game.is_out_of_stock,
    isHiddenFromConsumers: game.is_hidden || game.is_hidden_consumer,
    aboutThisGame: game.about_this_game,
    faq: game.faq.filter((f) => f.question.trim() && f.answer.trim()),
    platforms: game.platforms.filter((p) => p.trim()),
    linkLists: [
      siteLinks,
      ...LINK_LIST_TITLES.map(([key, title]) => ({ title, links: links[key] ?? [] })),
    ]
      .map((list) => ({ ...list, links: filled(list.links) }))
      .filter((list) => list.links.length > 0),
    form: consumerForm(game),
    packages,
    previewPackage: packages.find((p) => p.name === "mlbb")?.name ?? packages[0]?.name ?? "",
  };
}
