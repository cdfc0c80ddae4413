// The MooGold simulator's seeded catalogue: fixed ids, names and USD prices, the same every run.
// Labels in `fields` vary between products on purpose (MooGold's do), so the app has to key order
// data by the labels product_detail returns rather than assume "User ID" / "Server".

/** A seeded variation; `price` is exact decimal text in USD. */
export interface MoogoldSeedVariation {
  id: number;
  name: string;
  price: string;
}

/** A seeded product with everything product_detail and server_list answer. */
export interface MoogoldSeedProduct {
  id: number;
  name: string;
  /** list_product category: 50 = direct top-up. */
  categoryId: number;
  imageUrl: string;
  fields: string[];
  /** A label → value map, or the text MooGold sends when there is no list. */
  serverList: Record<string, string> | string;
  variations: MoogoldSeedVariation[];
}

/** The Mobile Legends product (the id of the worked signature example in external-apis.md). */
export const MOOGOLD_MLBB_PRODUCT_ID = 15145;

/** The list_product category of direct top-up products. */
export const MOOGOLD_DIRECT_TOP_UP_CATEGORY = 50;

const IMAGE_BASE = "https://moogold.com/wp-content/uploads";

/** Every product the simulator sells. */
export const MOOGOLD_CATALOGUE: readonly MoogoldSeedProduct[] = [
  {
    id: MOOGOLD_MLBB_PRODUCT_ID,
    name: "Mobile Legends",
    categoryId: MOOGOLD_DIRECT_TOP_UP_CATEGORY,
    imageUrl: `${IMAGE_BASE}/2020/08/mobile-legends.jpg`,
    fields: ["User ID", "Server"],
    serverList: "Enter from Website",
    variations: [
      { id: 4690783, name: "Mobile Legends - 86 Diamonds", price: "1.55" },
      { id: 4690784, name: "Mobile Legends - 172 Diamonds", price: "3.08" },
      { id: 4690785, name: "Mobile Legends - 257 Diamonds", price: "4.60" },
      { id: 4690786, name: "Mobile Legends - 344 Diamonds", price: "6.14" },
      { id: 4690787, name: "Mobile Legends - 514 Diamonds", price: "9.19" },
      { id: 4690788, name: "Mobile Legends - 706 Diamonds", price: "12.27" },
      { id: 4690789, name: "Mobile Legends - 2195 Diamonds", price: "36.76" },
      {
        id: 4690790,
        name: "Mobile Legends - Weekly Diamond Pass",
        price: "1.40",
      },
      { id: 4690791, name: "Mobile Legends - Twilight Pass", price: "6.98" },
    ],
  },
  {
    id: 2362359,
    name: "Free Fire",
    categoryId: MOOGOLD_DIRECT_TOP_UP_CATEGORY,
    imageUrl: `${IMAGE_BASE}/2021/03/free-fire.jpg`,
    fields: ["Player ID"],
    serverList: "Product has no server list",
    variations: [
      // Priced 0 on purpose: launching a game must skip zero-priced variations.
      { id: 2362360, name: "Free Fire - Trial Membership", price: "0.00" },
      { id: 2362361, name: "Free Fire - 100 Diamonds", price: "0.95" },
      { id: 2362362, name: "Free Fire - 310 Diamonds", price: "2.87" },
      { id: 2362363, name: "Free Fire - 520 Diamonds", price: "4.75" },
      { id: 2362364, name: "Free Fire - 1060 Diamonds", price: "9.49" },
      { id: 2362365, name: "Free Fire - Weekly Membership", price: "1.89" },
    ],
  },
  {
    id: 5177311,
    name: "Ragnarok Origin",
    categoryId: MOOGOLD_DIRECT_TOP_UP_CATEGORY,
    imageUrl: `${IMAGE_BASE}/2023/06/ragnarok-origin.jpg`,
    fields: ["User ID", "Server", "Character Name"],
    serverList: {
      "SEA - Prontera": "1001",
      "SEA - Izlude": "1002",
      "SEA - Morroc": "1003",
      "SEA - Payon": "1004",
    },
    variations: [
      { id: 5177312, name: "Ragnarok Origin - 6 Nyan Berry", price: "0.99" },
      { id: 5177313, name: "Ragnarok Origin - 30 Nyan Berry", price: "4.89" },
      { id: 5177314, name: "Ragnarok Origin - 66 Nyan Berry", price: "9.79" },
      { id: 5177315, name: "Ragnarok Origin - Monthly Card", price: "4.45" },
    ],
  },
  {
    id: 4233885,
    name: "Valorant",
    categoryId: MOOGOLD_DIRECT_TOP_UP_CATEGORY,
    imageUrl: `${IMAGE_BASE}/2022/01/valorant.jpg`,
    fields: ["Riot ID"],
    serverList: "Product has no server list",
    variations: [
      { id: 4233886, name: "Valorant - 475 VP", price: "4.65" },
      { id: 4233887, name: "Valorant - 1000 VP", price: "9.30" },
      { id: 4233888, name: "Valorant - 2050 VP", price: "18.60" },
    ],
  },
  {
    id: 3689112,
    name: "Genshin Impact",
    categoryId: MOOGOLD_DIRECT_TOP_UP_CATEGORY,
    imageUrl: `${IMAGE_BASE}/2021/10/genshin-impact.jpg`,
    fields: ["User ID", "Server"],
    serverList: {
      "America": "os_usa",
      "Europe": "os_euro",
      "Asia": "os_asia",
      "TW, HK, MO": "os_cht",
    },
    variations: [
      {
        id: 3689113,
        name: "Genshin Impact - 60 Genesis Crystals",
        price: "0.87",
      },
      {
        id: 3689114,
        name: "Genshin Impact - 300 + 30 Genesis Crystals",
        price: "4.31",
      },
      {
        id: 3689115,
        name: "Genshin Impact - Blessing of the Welkin Moon",
        price: "4.31",
      },
    ],
  },
];
