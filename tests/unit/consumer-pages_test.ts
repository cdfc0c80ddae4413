// A game's consumer page address and meta description, its FAQ as structured data, the
// help and messages of its order form, and which paths the page cache may answer for every
// visitor alike.
import assert from "node:assert/strict";
import {
  accountHelpText,
  consumerPageDescription,
  consumerPageSlug,
  faqStructuredData,
  missingAccountFields,
} from "../../src/shared/consumer-storefront.ts";
import { isConsumerStorefrontPath } from "../../src/domain/catalogue/consumer-catalogue.ts";

const slug = (name: string, supplierName = "x", id = "1F3A") =>
  consumerPageSlug({ id, name, supplierName });

Deno.test("consumer page slug: lowercase words joined by hyphens, Mobile Legends fixed", () => {
  assert.equal(slug("Honkai: Star Rail"), "honkai-star-rail");
  assert.equal(slug("Genshin Impact (EliteDias)"), "genshin-impact-elitedias");
  assert.equal(slug("  PUBG   Mobile!! "), "pubg-mobile");
  assert.equal(slug("Pokémon Unite"), "pokemon-unite", "accents dropped");
  assert.equal(slug("Mobile Legends: Bang Bang", "mlbb"), "mobile-legends", "the spec's page");
  assert.equal(slug("原神", "x", "1F3A"), "1f3a", "no latin letters: the game's id");
  assert.equal(slug("Order"), "order-top-up", "/consumers/order is the order lookup");
});

Deno.test("no game's page takes a policy page's address", () => {
  assert.equal(slug("Terms"), "terms-top-up");
  assert.equal(slug("PRIVACY!"), "privacy-top-up");
  assert.equal(slug("Refunds"), "refunds-top-up");
  assert.equal(slug("Terms of Battle"), "terms-of-battle", "only the exact address is taken");
});

/** A page's fields the description reads; the preview package holds items at these prices. */
function pageOf(
  fields: { name: string; description?: string; currency?: string; prices?: number[] },
) {
  const items = (fields.prices ?? []).map((price, i) => ({
    key: String(i),
    name: `${i}`,
    header: `${i}`,
    subheader: "",
    price,
    listPrice: null,
    image: "",
    isDoubleRecharge: false,
  }));
  return {
    name: fields.name,
    description: fields.description ?? "",
    currency: fields.currency ?? "",
    packages: [{ name: "", isOutOfStock: false, items }],
    previewPackage: "",
  };
}

Deno.test("consumer page description: the admin's, else name, currency and lowest price, ≤ 160", () => {
  assert.equal(
    consumerPageDescription(pageOf({ name: "Free Fire", currency: "Diamonds", prices: [5, 0.99] })),
    "Top up Free Fire Diamonds from $0.99. Enter your User ID, check the account name with " +
      "Verify and pay securely; most orders arrive in minutes.",
  );
  assert.equal(
    consumerPageDescription(pageOf({ name: "Honkai: Star Rail" })),
    "Top up Honkai: Star Rail. Enter your User ID, check the account name with Verify and pay " +
      "securely; most orders arrive in minutes.",
    "no currency and no items: neither is named",
  );
  assert.equal(
    consumerPageDescription(pageOf({ name: "X", description: "Our\n own  words." })),
    "Our own words.",
  );
  const long = consumerPageDescription(pageOf({ name: "X", description: "word ".repeat(60) }));
  assert.ok(long.length <= 160, `${long.length}`);
  assert.ok(long.endsWith("word…"), long);
});

Deno.test("a game's FAQ is FAQPage structured data that no answer can break out of", () => {
  assert.equal(faqStructuredData([]), null);
  const json = faqStructuredData([
    { question: "Where is my ID?", answer: "On your profile." },
    { question: "Evil?", answer: "</script><script>alert(1)</script> & more" },
  ])!;
  assert.ok(!json.includes("<"), json);
  assert.deepEqual(JSON.parse(json), {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: [
      {
        "@type": "Question",
        name: "Where is my ID?",
        acceptedAnswer: { "@type": "Answer", text: "On your profile." },
      },
      {
        "@type": "Question",
        name: "Evil?",
        acceptedAnswer: {
          "@type": "Answer",
          text: "</script><script>alert(1)</script> & more",
        },
      },
    ],
  });
});

Deno.test("the User ID help names what the game's form asks for", () => {
  const form = {
    name: "Genshin Impact",
    requiresServerID: false,
    servers: [],
    requiresCharacterName: false,
  };
  assert.equal(accountHelpText(form), "Find your User ID on your profile in Genshin Impact.");
  assert.equal(
    accountHelpText({ ...form, requiresServerID: true }),
    "Find your User ID and Server ID on your profile in Genshin Impact.",
  );
  assert.equal(
    accountHelpText({
      ...form,
      requiresServerID: true,
      servers: [["Asia", "os_asia"]],
      requiresCharacterName: true,
    }),
    "Find your User ID on your profile in Genshin Impact. Choose the server your account plays " +
      "on. Type your character name exactly as the game shows it.",
  );
});

Deno.test("Verify with an empty required field says which field and why, in the form's order", () => {
  const typed = { requiresServerID: true, servers: [], requiresCharacterName: true };
  const empty = { userid: " ", serverid: "", characterName: "" };
  assert.deepEqual(missingAccountFields(typed, empty), [
    { field: "userid", message: "Please enter your User ID" },
    { field: "serverid", message: "Please enter your Server ID" },
    { field: "characterName", message: "Please enter your Character Name" },
  ]);
  assert.deepEqual(
    missingAccountFields({ ...typed, servers: [["Asia", "os_asia"]] }, empty)[1],
    { field: "serverid", message: "Please select your server" },
  );
  const plain = { requiresServerID: false, servers: [], requiresCharacterName: false };
  assert.deepEqual(missingAccountFields(plain, empty), [
    { field: "userid", message: "Please enter your User ID" },
  ]);
  assert.deepEqual(
    missingAccountFields(plain, { userid: "123", serverid: "", characterName: "" }),
    [],
    "a game that asks for no server: the User ID is enough",
  );
});

Deno.test("the page cache answers /consumers and game pages, never the order lookup", () => {
  for (
    const path of [
      "/consumers",
      "/consumers/mobile-legends",
      "/consumers/honkai-star-rail",
      "/consumers/terms",
    ]
  ) {
    assert.ok(isConsumerStorefrontPath(path), path);
  }
  for (
    const path of [
      "/consumers/order",
      "/consumers/",
      "/consumers/a/b",
      "/consumers/Mobile-Legends",
      "/payment/success",
      "/admin/preview/free-fire",
    ]
  ) assert.ok(!isConsumerStorefrontPath(path), path);
});
