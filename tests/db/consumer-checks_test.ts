import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { insertGameRow } from "../../src/db/repositories/games.ts";
import { verifyConsumerAccount } from "../../src/domain/payments/consumer-checkout.ts";
import { CONSUMER_CHECKS_PER_SUPPLIER } from "../../src/domain/auth/rate-limit.ts";
import { ThrottledError } from "../../src/domain/errors.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";

const backend = testBackend();

Deno.test({
  name: `[consumer checks:${backend}] anonymous account checks are capped per supplier, ` +
    "whoever asks",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await insertGameRow(db, {
          name: "PUBG Mobile",
          supplier: "elephant",
          supplier_name: "pubgm",
          consumer_markup: 8.8,
          reseller_markup: "{}",
          reseller_markup_all: 5,
          servers: "{}",
          game_items: JSON.stringify([{
            nameReseller: "60 UC",
            nameConsumer: { header: "60 UC", subheader: "" },
            nameSupplier: "60 UC",
            cost: 0.9,
            isHiddenConsumer: false,
            isHiddenReseller: false,
          }]),
          packages: "[]",
          faq: "[]",
          platforms: "[]",
          links: "{}",
        });
        let calls = 0;
        const suppliers = {
          elitedias: {
            checkId: () => {
              calls++;
              return Promise.resolve({ ok: true, value: { valid: "valid", name: "Player" } });
            },
          },
        } as unknown as Suppliers;
        const check = (n: number) =>
          verifyConsumerAccount(db, suppliers, "pubg-mobile", {
            userid: `5${String(n).padStart(7, "0")}`,
            serverid: "",
            characterName: "",
          });
        for (let n = 0; n < CONSUMER_CHECKS_PER_SUPPLIER.max; n += 20) {
          const answers = await Promise.all(
            Array.from({ length: 20 }, (_, i) => check(n + i)),
          );
          assert.ok(answers.every((a) => a.choice.kind === "ok"));
        }
        await assert.rejects(check(999), ThrottledError);
        assert.equal(calls, CONSUMER_CHECKS_PER_SUPPLIER.max, "the refused check called no one");
      });
    } finally {
      await tdb.drop();
    }
  },
});
