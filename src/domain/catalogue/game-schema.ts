import { z } from "zod";

// zod schemas for the game JSON of src/shared/game-types.ts, used wherever a game enters the
// server (PUT /api/game/{id}, launch). Missing optional fields take their spec defaults.

const text = (max = 2000) => z.string().max(max).default("");
const flag = z.boolean().default(false);
const percent = z.number().min(0).max(10_000).default(0);
const cost = z.number().finite().min(0).max(1_000_000);

export const GameItemSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  nameReseller: z.string().trim().min(1).max(200),
  nameConsumer: z.object({ header: text(200), subheader: text(200) }).default({
    header: "",
    subheader: "",
  }),
  nameSupplier: z.string().min(1).max(200),
  cost,
  image: text(),
  isHiddenConsumer: flag,
  isHiddenReseller: flag,
  isDiscountedConsumer: flag,
  discountRateConsumer: z.number().min(0).max(100).default(0),
  isDiscountedReseller: flag,
  discountRateReseller: z.number().min(0).max(100).default(0),
  isDoubleRecharge: flag,
});

export const GamePackageSchema = z.object({
  name: z.string().trim().min(1).max(100),
  supplierPackageName: text(100),
  description: text(),
  remarks: text(),
  isHidden: flag,
  isOutOfStock: flag,
  markupConsumer: percent,
  gameItems: z.array(GameItemSchema).max(500).default([]),
});

const LinkList = z.array(z.object({ name: text(200), link: text(2000) })).max(100).default([]);

export const GameLinksSchema = z.object({
  newMetaUpdateLinks: LinkList,
  generalGuideLinks: LinkList,
  howToPlayLinks: LinkList,
  esportsEventLinks: LinkList,
  memesFunnyLinks: LinkList,
}).default({
  newMetaUpdateLinks: [],
  generalGuideLinks: [],
  howToPlayLinks: [],
  esportsEventLinks: [],
  memesFunnyLinks: [],
});

const markupMap = z.record(z.string().max(200), z.number().min(0).max(10_000)).default({});

/** The editable game, as PUT /api/game/{id} receives it; `version` is the one edited. */
export const GameSaveSchema = z.object({
  name: z.string().trim().min(1, "Game name is required").max(200),
  supplierNotes: text(10_000),
  hasPackages: flag,
  isHidden: flag,
  isHiddenConsumer: flag,
  isOutOfStock: flag,
  priority: z.number().int().min(0).max(100_000).default(0),
  tagline: text(300),
  description: text(10_000),
  gameImage: text(),
  aboutThisGame: text(10_000),
  faq: z.array(z.object({ question: text(1000), answer: text(5000) })).max(100).default([]),
  platforms: z.array(z.string().max(100)).max(20).default([]),
  requiresServerID: flag,
  requiresCharacterName: flag,
  instructionalImage: text(),
  gameCurrency: text(50),
  consumerMarkup: percent,
  resellerMarkup: markupMap,
  resellerMarkupAll: percent,
  markupForIndividualResellers: flag,
  servers: z.record(z.string().max(200), z.string().max(200)).default({}),
  redemptionCodes: text(10_000),
  gameItems: z.array(GameItemSchema).max(500).default([]),
  packages: z.array(GamePackageSchema).max(20).default([]),
  links: GameLinksSchema,
  officialWebsiteLink: text(),
  fandomLink: text(),
  redditLink: text(),
  version: z.number().int().min(1),
});

export type GameSave = z.output<typeof GameSaveSchema>;
export type GameItem = z.output<typeof GameItemSchema>;
export type GamePackage = z.output<typeof GamePackageSchema>;
