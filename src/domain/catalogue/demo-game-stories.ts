// What the demo's game pages say besides the form: an About text and an FAQ per game, written for
// this shop. They describe the games in general terms and how buying here works; they make no
// claim about any game's publisher. An admin edits them like any game's (Edit game › Details).

/** The About text and the FAQ of one demo game. */
export interface DemoGameStory {
  about: string;
  faq: { question: string; answer: string }[];
}

/** How a demo game's account is found and named, for its FAQ. */
interface AccountGuide {
  name: string;
  /** Where the game shows the User ID (and server), as one or two sentences. */
  whereIsId: string;
  /** What the top-up is spent on in the game. */
  currencyUse: string;
}

/** The questions every top-up page answers, with the game's own "where is my ID". */
function topUpFaq(game: AccountGuide): DemoGameStory["faq"] {
  return [
    { question: `Where do I find my ${game.name} User ID?`, answer: game.whereIsId },
    {
      question: "How long does delivery take?",
      answer: "Most orders arrive within a few minutes of payment. At busy times it can take " +
        "longer: the order page shows its status, and the receipt email links to it. If the " +
        "items do not show, restart the game. Still nothing after an hour? Chat with us on " +
        "WhatsApp or Telegram with your order number.",
    },
    {
      question: "What if I typed the wrong User ID?",
      answer: "Press Verify before you pay: it shows the name of the account the ID belongs to, " +
        "so you can check it is yours. A top-up delivered to another player's account cannot be " +
        "taken back, so if you notice a mistake after paying, contact us at once on WhatsApp " +
        "or Telegram with your order number.",
    },
    {
      question: "Do you need my password?",
      answer: "No. A top-up needs only your User ID (and server, where the game has them). Never " +
        "give anyone your password or login code.",
    },
    {
      question: "What can I use the top-up for?",
      answer: game.currencyUse,
    },
    {
      question: "How can I pay?",
      answer: "With PayNow, GrabPay, ShopeePay Later or Atome on a secure payment page, or by " +
        "bank transfer with your order number as the reference.",
    },
  ];
}

/** Each demo game's story, by its supplier name (the key the demo catalogue launches it under). */
export const DEMO_GAME_STORIES: Record<string, DemoGameStory> = {
  mlbb: {
    about: "Mobile Legends: Bang Bang is a five-versus-five battle arena game for phones: two " +
      "teams pick heroes, push down three lanes and race to destroy the other side's base, in " +
      "matches of about fifteen minutes.\n\n" +
      "Diamonds are its premium currency. Top them up here with your User ID and Zone ID; they " +
      "go straight to your account, with no login needed.",
    faq: topUpFaq({
      name: "Mobile Legends",
      whereIsId: "Open the game and tap your avatar in the top-left corner. Your profile shows " +
        "your User ID with the Zone ID in brackets after it, for example 12345678 (1234): enter " +
        "the first number as the User ID and the one in brackets as the Server ID.",
      currencyUse: "Diamonds buy heroes, skins, the Weekly Diamond Pass, event draws and more " +
        "in the in-game shop.",
    }),
  },
  genshin: {
    about: "Genshin Impact is an open-world action role-playing game: explore a large fantasy " +
      "world, build a party of characters with different elements and combine them in battle. " +
      "It plays on phones, PC and consoles with the same account.\n\n" +
      "Genesis Crystals are its premium currency. Choose your server and enter your UID; they " +
      "arrive in your account without a login.",
    faq: topUpFaq({
      name: "Genshin Impact",
      whereIsId: "Your UID is the nine or ten digit number in the bottom-right corner of the " +
        "game screen, and in the Paimon menu. Choose the server your account plays on: " +
        "America, Europe, Asia or TW, HK, MO.",
      currencyUse: "Genesis Crystals can be exchanged for Primogems, used for wishes, or spent " +
        "on outfits and the Battle Pass.",
    }),
  },
  pubgm: {
    about: "PUBG Mobile is a battle royale shooter: up to a hundred players drop onto a map, " +
      "gather gear and fight to be the last player or squad standing as the safe zone " +
      "shrinks.\n\n" +
      "UC is its premium currency. Enter your Character ID and it is added to your account.",
    faq: topUpFaq({
      name: "PUBG Mobile",
      whereIsId: "Open the game and tap your avatar in the top-left corner: the Character ID is " +
        "the number under your name. You can copy it from there.",
      currencyUse: "UC buys the Royale Pass, outfits, weapon skins and crate openings.",
    }),
  },
  honkai_star_rail: {
    about: "Honkai: Star Rail is a turn-based role-playing game set aboard a train that travels " +
      "between worlds: recruit characters, plan each turn of a battle and follow a long " +
      "story.\n\n" +
      "Top up Oneiric Shards here with your UID and server; they go straight to your account.",
    faq: topUpFaq({
      name: "Honkai: Star Rail",
      whereIsId: "Your UID is shown in the bottom-left corner of the game screen and on the " +
        "phone menu's profile. Choose the server your account plays on: America, Europe, Asia " +
        "or TW, HK, MO.",
      currencyUse: "Oneiric Shards can be exchanged for Stellar Jade, used for warps, or spent " +
        "on the Express Supply Pass and other shop items.",
    }),
  },
  "Free Fire": {
    about: "Free Fire is a fast battle royale for phones: fifty players land on an island and " +
      "the last one standing wins, in matches of about ten minutes that run well on most " +
      "devices.\n\n" +
      "Diamonds are its premium currency. Enter your Player ID to top them up.",
    faq: topUpFaq({
      name: "Free Fire",
      whereIsId: "Open the game and tap your avatar in the top-left corner: the Player ID is the " +
        "number shown under your nickname.",
      currencyUse: "Diamonds buy characters, pets, outfits, weapon skins and the Elite Pass.",
    }),
  },
  "Ragnarok Origin": {
    about: "Ragnarok Origin is a fantasy role-playing game for phones based on the classic " +
      "Ragnarok world: choose a class, level up, join a guild and take on dungeons and bosses " +
      "together.\n\n" +
      "Top-ups here need your User ID, your server and your character's name, so the items " +
      "reach the right character.",
    faq: topUpFaq({
      name: "Ragnarok Origin",
      whereIsId: "Open your character's profile in the game: it shows your User ID. Choose the " +
        "server the character plays on and type the character name exactly as the game shows " +
        "it.",
      currencyUse: "The items listed here are spent in the in-game shop on costumes, passes " +
        "and other goods.",
    }),
  },
  Valorant: {
    about: "Valorant is a five-versus-five tactical shooter: one team plants a device and the " +
      "other defends, with agents whose abilities change each round.\n\n" +
      "Points are its premium currency. Enter your account ID to top them up.",
    faq: topUpFaq({
      name: "Valorant",
      whereIsId: "Your account name and tag (for example Player#1234) are shown in the game " +
        "client when you open your profile. Enter the ID exactly as the form asks for it.",
      currencyUse: "Points buy weapon skins, agents and the Battle Pass.",
    }),
  },
};
