// The JSON shapes of games as the /api sends and receives them (spec §3 Game, Package, Game item).
// Types only: islands and server code both import them, nothing here runs.

/** Spec §3 Game item. `cost` is the supplier price in dollars (JSON number, supplier precision). */
export interface GameItemDto {
  /** MooGold variation id (second supplier only). */
  id?: string;
  nameReseller: string;
  nameConsumer: { header: string; subheader: string };
  /** Identifies the selection at the supplier: EliteDias denomination key, MooGold variation name. */
  nameSupplier: string;
  cost: number;
  image: string;
  isHiddenConsumer: boolean;
  isHiddenReseller: boolean;
  isDiscountedConsumer: boolean;
  discountRateConsumer: number;
  isDiscountedReseller: boolean;
  discountRateReseller: number;
  isDoubleRecharge: boolean;
}

/** Spec §3 Package (Mobile Legends: mlbb, mlbb_special, mlbb_global). */
export interface GamePackageDto {
  name: string;
  /** The supplier's game code for this package (EliteDias game, e.g. "mlbb_special"). */
  supplierPackageName: string;
  description: string;
  remarks: string;
  isHidden: boolean;
  isOutOfStock: boolean;
  markupConsumer: number;
  gameItems: GameItemDto[];
}

export interface NamedLink {
  name: string;
  link: string;
}

export interface GameLinksDto {
  newMetaUpdateLinks: NamedLink[];
  generalGuideLinks: NamedLink[];
  howToPlayLinks: NamedLink[];
  esportsEventLinks: NamedLink[];
  memesFunnyLinks: NamedLink[];
}

export type SupplierKind = "monkey" | "elephant" | "others";

/** Spec §3 Game, as GET /api/admin/games returns it and PUT /api/game/{id} takes it. */
export interface GameDto {
  _id: string;
  name: string;
  /** The supplier's key for the game: EliteDias game code, MooGold product title; "mlbb" for Mobile Legends. */
  supplierName: string;
  supplier: SupplierKind;
  /** MooGold product id (second supplier). */
  supplierGameID: string;
  supplierNotes: string;
  hasPackages: boolean;
  isHidden: boolean;
  /** Hidden from consumers only: resellers keep buying it. */
  isHiddenConsumer: boolean;
  isOutOfStock: boolean;
  priority: number;
  tagline: string;
  description: string;
  gameImage: string;
  aboutThisGame: string;
  faq: { question: string; answer: string }[];
  platforms: string[];
  requiresServerID: boolean;
  requiresCharacterName: boolean;
  instructionalImage: string;
  /** Appended to digits-only denomination names in the reseller-facing name (e.g. "Diamonds"). */
  gameCurrency: string;
  consumerMarkup: number;
  resellerMarkup: Record<string, number>;
  resellerMarkupAll: number;
  markupForIndividualResellers: boolean;
  servers: Record<string, string>;
  redemptionCodes: string;
  gameItems: GameItemDto[];
  packages: GamePackageDto[];
  links: GameLinksDto;
  officialWebsiteLink: string;
  fandomLink: string;
  redditLink: string;
  /** Optimistic-concurrency version; PUT must send the version it edited. */
  version: number;
}

/** What a reseller sees of a game's items: prices computed on the server for that reseller. */
export interface ResellerItemDto {
  /** Index-stable key of the item within its game or package. */
  key: string;
  name: string;
  nameConsumer: { header: string; subheader: string };
  /** Price in dollars for this reseller (markup and discount applied, rounded up to the cent). */
  price: number;
  image: string;
  isDoubleRecharge: boolean;
}

/** GET /api/reseller/games: a game card for the reseller's grid. */
export interface ResellerGameDto {
  _id: string;
  name: string;
  tagline: string;
  gameImage: string;
  supplier: SupplierKind;
  supplierName: string;
  /** MooGold product id (for /api/product_validate and /api/create_order). */
  supplierGameID: string;
  hasPackages: boolean;
  isOutOfStock: boolean;
  requiresServerID: boolean;
  requiresCharacterName: boolean;
  servers: Record<string, string>;
  priority: number;
}

/** POST /api/launch_game body (spec §7), as the launch form sends it. */
export interface LaunchGameInput {
  name: string;
  tagline: string;
  supplier: "monkey" | "elephant";
  supplierName: string;
  supplierNotes: string;
  supplierGameID: string;
  gameItems: GameItemDto[];
  consumerMarkup: number;
  resellerMarkup: Record<string, number>;
  resellerMarkupAll: number;
  markupForIndividualResellers: boolean;
  requiresServerID: boolean;
  requiresCharacterName: boolean;
  priority: number;
  servers: Record<string, string>;
  gameImage: string;
  isHidden: boolean;
  gameCurrency?: string;
}
