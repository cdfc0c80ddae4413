import type { Db } from "../../db/client.ts";
import {
  insertGameRow,
  listGameRows,
  updateGameRowAtVersion,
} from "../../db/repositories/games.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GamePackageDto } from "../../shared/game-types.ts";
import { launchGame, LaunchGameSchema, newGameItem, readSupplierOffer } from "./launch.ts";
import { MLBB_SUPPLIER_NAME, MOBILE_LEGENDS, supplierGameOf } from "./games.ts";
import { UpstreamError } from "../errors.ts";
import { ELITEDIAS_KEY } from "../../integrations/elitedias/port.ts";
import { MOOGOLD_KEY } from "../../integrations/moogold/port.ts";
import { parseDecimal } from "../money.ts";
import { supplierPort } from "../../integrations/supplier-registry.ts";
import { DEMO_GAME_STORIES } from "./demo-game-stories.ts";

/**
 * Where the demo's game tiles are served: original SVG artwork (no vendor images) shipped in
 * static/games with the client build. Uploaded images live elsewhere (/uploads/ or a bucket), so a
 * game whose image is here is one the demo made.
 */
export const DEMO_TILE_PREFIX = "/games/";

function demoTile(name: string): string {
  return `${DEMO_TILE_PREFIX}${name}.svg`;
}

const MLBB_PACKAGES = [
  { name: "mlbb", description: "Standard Mobile Legends diamonds" },
  { name: "mlbb_special", description: "Special region packages" },
  { name: "mlbb_global", description: "Global accounts" },
] as const;

/** Double-recharge denominations in the demo's mlbb_special package (spec: 'Double Recharge ⚡⚡'). */
const DOUBLE_RECHARGE = new Set(["50", "150", "250", "500"]);

/**
 * Creates the Mobile Legends game: three packages, each priced from its EliteDias game
 * (mlbb, mlbb_special, mlbb_global), with the demo's tile unless given an image of the shop's. Markup keys mlbb, mlbb_global, mlbb_special already exist
 * on every reseller (spec §9 default markup keys).
 */
export async function createMobileLegendsGame(
  db: Db,
  suppliers: Suppliers,
  options: { consumerMarkup: number; gameImage?: string },
): Promise<void> {
  const packages: GamePackageDto[] = [];
  for (const pkg of MLBB_PACKAGES) {
    const offer = await readSupplierOffer(suppliers, ELITEDIAS_KEY, pkg.name, "");
    if (!offer) throw new UpstreamError(`Could not read ${pkg.name} from EliteDias`);
    packages.push({
      name: pkg.name,
      supplierPackageName: pkg.name,
      description: pkg.description,
      remarks: "",
      isHidden: false,
      isOutOfStock: false,
      markupConsumer: options.consumerMarkup,
      gameItems: [...offer]
        .filter(([, o]) => parseDecimal(o.cost).units > 0n)
        .map(([key, o]) => ({
          ...newGameItem(key, o),
          isDoubleRecharge: pkg.name === "mlbb_special" && DOUBLE_RECHARGE.has(key),
        })),
    });
  }
  await insertGameRow(db, {
    name: MOBILE_LEGENDS,
    supplier: ELITEDIAS_KEY,
    supplier_name: MLBB_SUPPLIER_NAME,
    supplier_game_id: null,
    has_packages: true,
    priority: 1,
    tagline: "Diamonds delivered in minutes",
    game_image: options.gameImage ?? demoTile("mobile-legends"),
    requires_server_id: true,
    game_currency: "Diamonds",
    consumer_markup: options.consumerMarkup,
    reseller_markup: "{}",
    reseller_markup_all: 0,
    servers: "{}",
    game_items: "[]",
    packages: JSON.stringify(packages),
    faq: "[]",
    platforms: JSON.stringify(["Android", "iOS"]),
    links: "{}",
  });
}

const DEMO_LAUNCHES = [
  {
    supplier: ELITEDIAS_KEY,
    supplierName: "genshin",
    name: "Genshin Impact",
    gameCurrency: "Genesis Crystals",
    requiresServerID: true,
    gameImage: demoTile("genshin"),
  },
  {
    supplier: ELITEDIAS_KEY,
    supplierName: "pubgm",
    name: "PUBG Mobile",
    gameCurrency: "UC",
    gameImage: demoTile("pubg-mobile"),
  },
  {
    supplier: ELITEDIAS_KEY,
    supplierName: "honkai_star_rail",
    name: "Honkai: Star Rail",
    gameCurrency: "",
    requiresServerID: true,
    gameImage: demoTile("honkai-star-rail"),
  },
  {
    supplier: MOOGOLD_KEY,
    supplierName: "Free Fire",
    supplierGameID: "2362359",
    name: "Free Fire",
    gameCurrency: "Diamonds",
    gameImage: demoTile("free-fire"),
  },
  {
    supplier: MOOGOLD_KEY,
    supplierName: "Ragnarok Origin",
    supplierGameID: "5177311",
    name: "Ragnarok Origin",
    gameCurrency: "",
    requiresServerID: true,
    requiresCharacterName: true,
    gameImage: demoTile("ragnarok-origin"),
  },
  {
    supplier: MOOGOLD_KEY,
    supplierName: "Valorant",
    supplierGameID: "4233885",
    name: "Valorant",
    gameCurrency: "Points",
    gameImage: demoTile("valorant"),
  },
];

/**
 * Gives each demo game its About text and FAQ, and its supplier's notes on where its ID is (what
 * the launch form keeps as the game's supplier notes), so the demo's pages read as a shop's would.
 */
async function tellDemoStories(db: Db, suppliers: Suppliers): Promise<void> {
  for (const game of await listGameRows(db)) {
    const story = DEMO_GAME_STORIES[game.supplier_name];
    if (!story) continue;
    const port = supplierPort(suppliers, game.supplier);
    const details = port
      ? await port.readLaunchDetails(supplierGameOf(game)[port.gameKey] ?? "")
      : null;
    await updateGameRowAtVersion(db, game.id, game.version, {
      about_this_game: story.about,
      faq: JSON.stringify(story.faq),
      // A supplier without notes (MooGold has none) leaves the launch's.
      ...(details?.supplierNotes ? { supplier_notes: details.supplierNotes } : {}),
    });
  }
}

/** Fills an empty catalogue with Mobile Legends and a few launched games from both simulators. */
export async function seedDemoCatalogue(
  db: Db,
  suppliers: Suppliers,
): Promise<number> {
  if ((await listGameRows(db)).length) return 0;
  await createMobileLegendsGame(db, suppliers, { consumerMarkup: 8.8 });
  for (const launch of DEMO_LAUNCHES) {
    const input = LaunchGameSchema.parse({
      ...launch,
      tagline: `Top up ${launch.name} instantly`,
      consumerMarkup: 8.8,
      resellerMarkupAll: 5,
    });
    await launchGame(db, suppliers, input, { _id: null, name: "demo" });
  }
  await tellDemoStories(db, suppliers);
  return 1 + DEMO_LAUNCHES.length;
}
