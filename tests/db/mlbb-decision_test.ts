import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import type { Db } from "../../src/db/client.ts";
import { createMobileLegendsGame } from "../../src/domain/catalogue/demo-catalogue.ts";
import { placeResellerOrder } from "../../src/domain/orders/place.ts";
import {
  formatOutOfStockTitle,
  MLBB_PACKAGES,
  verifyMlbbForOrder,
} from "../../src/domain/orders/verification.ts";
import { ConflictError, ValidationError } from "../../src/domain/errors.ts";
import type { GamePackageDto } from "../../src/shared/game-types.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const backend = testBackend();

// The simulator's Mobile Legends accounts (README "Simulator test accounts"), and one account of
// generated digits that is on the restricted list.
const ACCOUNTS: [string, string][] = [
  ["11111111", "1111"],
  ["22222222", "2222"],
  ["33333333", "3333"],
  ["44444444", "4444"],
  ["55555555", "5555"],
  ["66666666", "6666"],
  ["98765432", "4321"],
  ["12121212", "1212"],
];
const RESTRICTED: [string, string] = ["12121212", "1212"];

async function setStock(db: Db, gameOut: boolean, packagesOut: boolean[]): Promise<void> {
  const game = await db.selectFrom("games").select("packages").where("supplier_name", "=", "mlbb")
    .executeTakeFirstOrThrow();
  const packages = (game.packages as GamePackageDto[]).map((p) => ({
    ...p,
    isOutOfStock: packagesOut[MLBB_PACKAGES.indexOf(p.name as typeof MLBB_PACKAGES[number])],
  }));
  await db.updateTable("games")
    .set({ is_out_of_stock: gameOut, packages: JSON.stringify(packages) })
    .where("supplier_name", "=", "mlbb").execute();
}

Deno.test({
  name:
    `[mlbb:${backend}] verify and place agree for every simulator account and every stock state`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    try {
      await withHandle(tdb, async (db) => {
        const { suppliers } = sim;
        await createMobileLegendsGame(db, suppliers, { consumerMarkup: 8.8 });
        await db.insertInto("restricted_mlbb_users")
          .values({ user_id: RESTRICTED[0], server_id: RESTRICTED[1], created_by: "test" })
          .execute();
        const reseller = await createTestReseller(db, {
          name: "Agreeing",
          email: "agreeing@test.example",
          password: "long enough password",
          balanceCents: 100_000_000,
          markup: { mlbb: 10, mlbb_special: 10, mlbb_global: 10 },
        });
        const seen = new Set<string>();
        for (let state = 0; state < 16; state++) {
          const gameOut = (state & 8) !== 0;
          const packagesOut = [0, 1, 2].map((i) => (state & (1 << i)) !== 0);
          await setStock(db, gameOut, packagesOut);
          const game = await db.selectFrom("games").select("packages")
            .where("supplier_name", "=", "mlbb").executeTakeFirstOrThrow();
          const packages = game.packages as GamePackageDto[];
          for (const [userid, serverid] of ACCOUNTS) {
            const label = `${userid}/${serverid} game out=${gameOut} packages out=${packagesOut}`;
            const { choice } = await verifyMlbbForOrder(db, suppliers, userid, serverid);
            seen.add(choice.kind);
            const denom = packages.find((p) =>
              p.name === (choice.kind === "ok" ? choice.package : "mlbb")
            )!.gameItems[0].nameSupplier;
            const placing = placeResellerOrder({ db, suppliers }, {
              game: { mobileLegends: true },
              resellerId: reseller._id,
              seesHiddenGames: false,
              package: choice.kind === "ok" ? choice.package : undefined,
              denom,
              userid,
              serverid,
              userName: "Player",
            });
            if (choice.kind === "ok") {
              const placed = await placing;
              assert.equal(placed.kind, "placed", label);
              assert.equal(placed.body.order.package, choice.package, label);
            } else if (choice.kind === "out_of_stock") {
              const title = formatOutOfStockTitle(choice.package ?? "Mobile Legends");
              await assert.rejects(placing, new ConflictError(title), label);
            } else {
              await assert.rejects(placing, new ValidationError("Invalid user"), label);
            }
          }
        }
        assert.deepEqual([...seen].sort(), ["invalid", "ok", "out_of_stock"]);
      });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});
