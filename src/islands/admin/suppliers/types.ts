import type { GameItemDto, LaunchGameInput, SupplierKind } from "../../../shared/game-types.ts";

/** The suppliers games are launched from: 'elephant' is EliteDias, 'monkey' is MooGold (spec §9). */
export type Supplier = LaunchGameInput["supplier"];

/** A game in a supplier's catalogue, as the Suppliers screen lists it. */
export interface SupplierGame {
  supplier: Supplier;
  /** The EliteDias game code or the MooGold product title: the launched game's supplierName. */
  supplierName: string;
  /** The game's name as the screen shows it: the MooGold title, or the EliteDias code's name. */
  title: string;
  /** The MooGold product id; empty for EliteDias. */
  supplierGameID: string;
}

/** An entry of GET /api/launched_games. */
export interface LaunchedGame {
  _id: string;
  name: string;
  supplier: SupplierKind;
  supplierName: string;
  supplierGameID: string;
  hasPackages: boolean;
  /** The supplier codes of its packages (Mobile Legends: mlbb, mlbb_special, mlbb_global). */
  packageNames: string[];
}

/** One EliteDias denomination or MooGold variation. */
export interface SupplierItem {
  /** The supplier's name for it: the EliteDias denomination key or the MooGold variation_name. */
  nameSupplier: string;
  /** The name resellers and consumers see: a MooGold name without its "<product> - " prefix. */
  nameReseller: string;
  /** The supplier's price in dollars, or the supplier's own text when it is not a number. */
  price: number | string;
  /** The MooGold variation_id. */
  id?: string;
}

/** What the detail screen shows of a supplier game, from the supplier's calls. */
export interface SupplierDetail {
  title: string;
  imageUrl: string;
  items: SupplierItem[];
  fields: string[];
  /** Server label → value; empty when the supplier has no server list. */
  servers: Record<string, string>;
  notes: string;
}

/** A game item as the launch sends it; the server fills the toggles and re-reads the cost. */
export type LaunchItem = Pick<
  GameItemDto,
  "id" | "nameSupplier" | "nameReseller" | "nameConsumer" | "cost"
>;

/** POST /api/launch_game body (spec §7) with the items the screen sends. */
export type LaunchBody = Omit<LaunchGameInput, "gameItems"> & { gameItems: LaunchItem[] };

/** The launch form's fields as typed; markups are text until they are sent as numbers. */
export interface LaunchFormValues {
  name: string;
  tagline: string;
  gameCurrency: string;
  consumerMarkup: string;
  resellerMarkupAll: string;
  markupForIndividualResellers: boolean;
  /** Reseller name → markup percent as typed. */
  resellerMarkup: Record<string, string>;
}
