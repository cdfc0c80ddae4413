// Outside the demo a policy page exists only once an admin wrote it: the footer links what has
// text and names the company once it has a name, an empty page is a 404 (never an empty page),
// and a save is audited and moves the version the consumer page cache compares.
import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import {
  readStorePolicies,
  saveStorePolicies,
  storefrontFooter,
  storePolicyPage,
} from "../../src/domain/catalogue/store-policies.ts";
import { consumerCatalogueVersion } from "../../src/domain/catalogue/consumer-catalogue.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };
const OPS = { type: "admin" as const, id: "00000000-0000-0000-0000-000000000001", name: "Ops" };
const production = { demo: false };

Deno.test({
  name: `[store policies:${backend}] production links and serves only the pages with text, ` +
    "shows the company once named, and audits each save",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        assert.deepEqual(await storefrontFooter(db, production), { links: [], company: null });
        assert.equal(await storePolicyPage(db, "terms", production), undefined);

        const before = await consumerCatalogueVersion(db);
        const company = { name: "", registrationNumber: "2024X", address: "", email: "" };
        await saveStorePolicies(db, {
          terms: "  \n ",
          privacy: "",
          refunds: "## Refunds\nUndelivered orders are refunded.",
          company,
        }, OPS);
        assert.notEqual(await consumerCatalogueVersion(db), before, "the cached pages render anew");

        assert.deepEqual(await storefrontFooter(db, production), {
          links: [{ href: "/consumers/refunds", title: "Refund Policy" }],
          company: null,
        }, "a company without a name is not shown");
        assert.equal(await storePolicyPage(db, "terms", production), undefined, "blank: a 404");
        assert.deepEqual(await storePolicyPage(db, "refunds", production), {
          title: "Refund Policy",
          blocks: [
            { kind: "heading", text: "Refunds" },
            { kind: "paragraph", text: "Undelivered orders are refunded." },
          ],
          placeholder: false,
        });
        assert.equal((await readStorePolicies(db)).terms, "", "saved trimmed");

        await saveStorePolicies(db, {
          ...(await readStorePolicies(db)),
          company: { ...company, name: "Gem Shop Pte. Ltd." },
        }, OPS);
        assert.equal((await storefrontFooter(db, production)).company?.name, "Gem Shop Pte. Ltd.");

        const audits = await db.selectFrom("audit_log").select([
          "action",
          "target_id",
          "actor_name",
        ])
          .where("target_id", "=", "store_policies").execute();
        assert.deepEqual(audits, [
          { action: "settings.update", target_id: "store_policies", actor_name: "Ops" },
          { action: "settings.update", target_id: "store_policies", actor_name: "Ops" },
        ]);
      });
    } finally {
      await tdb.drop();
    }
  },
});
