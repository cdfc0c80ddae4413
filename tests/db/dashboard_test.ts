// The dashboard's figures against a fixture computed by hand (tests/helpers/dashboard-fixture.ts),
// on PGlite and PostgreSQL: window edges, the 4 Apr 2025 start, exclusions as admin settings, and
// only successful orders counted; and the daily totals against a recount after seeded writes, with
// the job runner's fold (rollUpDashboard) before, between and after them.
import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { seedDashboardFixture } from "../helpers/dashboard-fixture.ts";
import {
  readDashboard,
  rollUpDashboard,
  saveDashboardExclusions,
} from "../../src/domain/admin/dashboard.ts";
import { checkDashboardTotals } from "../../src/domain/ledger/invariants.ts";
import { createSeededRandom } from "../../src/integrations/simulator-kit.ts";
import type { DashboardFigures } from "../../src/shared/dashboard-types.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };
const NOW = new Date("2026-11-23T12:00:00Z");
const ADMIN = { type: "admin" as const, id: undefined, name: "Fixture Admin" };

/** orders, averageOrder, revenue, cost, profit, margin */
function f(...v: [number, number, number, number, number, number]): DashboardFigures {
  const [orders, averageOrder, revenue, cost, profit, margin] = v;
  return { orders, averageOrder, revenue, cost, profit, margin };
}
const ZERO = f(0, 0, 0, 0, 0, 0);

Deno.test({
  name: `[dashboard:${backend}] figures match the hand-computed fixture exactly`,
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await seedDashboardFixture(db, NOW);

        await t.step("before any exclusion, the internal account's order counts", async () => {
          const d = await readDashboard(db, NOW);
          // Lifetime + Internal One's 99.99 (cost 1.00).
          assert.deepEqual(d.totals, { orders: 10, revenue: 180.49, profit: 113.25 });
          assert.deepEqual(d.resellers.map((r) => r.name), [
            "Alpha",
            "Bravo",
            "Hidden Shop",
            "Internal One",
          ]);
        });

        await saveDashboardExclusions(db, {
          excludedAccounts: ["  internal ONE "],
          hiddenResellerNames: ["HIDDEN SHOP", "hidden shop"],
        }, ADMIN);
        const d = await readDashboard(db, NOW);

        await t.step("the Orders table, each window's edge included", () => {
          assert.deepEqual(
            d.windows.map((w) => [w.label, { ...w, key: undefined, label: undefined }]),
            [
              ["Lifetime", f(9, 8.94, 80.5, 66.24, 14.26, 17.71)],
              ["Past 7 Days", f(7, 10.36, 72.5, 59.34, 13.16, 18.15)],
              ["Past 24 Hours", f(5, 10.6, 53, 43.01, 9.99, 18.85)],
              ["Past 8 Hours", f(3, 10, 30, 25.51, 4.49, 14.97)],
            ].map((
              [label, fig],
            ) => [label, { ...fig as DashboardFigures, key: undefined, label: undefined }]),
          );
          assert.deepEqual(d.totals, { orders: 9, revenue: 80.5, profit: 14.26 });
        });

        await t.step("Resellers: excluded and hidden names are not listed", () => {
          assert.deepEqual(d.resellers, [
            {
              _id: d.resellers[0]._id,
              name: "Alpha",
              balance: 100,
              lifetime: f(4, 9.38, 37.5, 30.01, 7.49, 19.97),
              past24Hours: f(3, 11, 33, 26.01, 6.99, 21.18),
            },
            {
              _id: d.resellers[1]._id,
              name: "Bravo",
              balance: 50.5,
              lifetime: f(3, 7.67, 23, 19.23, 3.77, 16.39),
              past24Hours: ZERO,
            },
          ]);
        });

        await t.step("Packages: MLBB Special, MLBB Global, MLBB", () => {
          assert.deepEqual(d.packages, [
            {
              package: "mlbb_special",
              label: "MLBB Special",
              lifetime: f(2, 10.5, 21, 15.9, 5.1, 24.29),
              past24Hours: f(1, 20, 20, 15, 5, 25),
            },
            {
              package: "mlbb_global",
              label: "MLBB Global",
              lifetime: f(1, 3, 3, 2.5, 0.5, 16.67),
              past24Hours: f(1, 3, 3, 2.5, 0.5, 16.67),
            },
            {
              package: "mlbb",
              label: "MLBB",
              lifetime: f(5, 10.4, 52, 43.84, 8.16, 15.69),
              past24Hours: f(3, 10, 30, 25.51, 4.49, 14.97),
            },
          ]);
        });

        await t.step("charts: orders per hour and revenue per Singapore day", () => {
          assert.equal(d.ordersByHour.length, 24);
          assert.equal(d.ordersByHour[0].start, "2026-11-22T13:00:00.000Z");
          assert.deepEqual(
            d.ordersByHour.flatMap((b, i) => b.orders ? [[i, b.orders]] : []),
            [[14, 1], [15, 1], [21, 1], [22, 1]],
          );
          assert.equal(d.revenueByDay.length, 30);
          assert.equal(d.revenueByDay[29].start, "2026-11-22T16:00:00.000Z");
          assert.deepEqual(
            d.revenueByDay.flatMap((b, i) => b.orders ? [[i, b.orders, b.revenue, b.profit]] : []),
            [[22, 2, 22, 3.67], [28, 2, 7.5, 1], [29, 4, 50, 9.49]],
          );
          // Labelled in Singapore time: the day that starts 16:00 UTC is the next day there.
          assert.equal(d.revenueByDay[29].label, "23 Nov");
          assert.equal(d.revenueByDay[0].label, "25 Oct");
          assert.equal(d.ordersByHour[0].label, "9 pm");
          assert.equal(d.ordersByHour[15].label, "12 pm");
        });

        await t.step("a past day's order that changes status changes the figures", async () => {
          // Bravo's order of 168 h and 1 ms ago (7.00, cost 6.00) sits in a whole past day.
          await db.updateTable("orders").set({ status: "error" }).where("id", "=", "FIX-006")
            .execute();
          const after = await readDashboard(db, NOW);
          assert.deepEqual(after.totals, { orders: 8, revenue: 73.5, profit: 13.26 });
          await db.updateTable("orders").set({ status: "successful" }).where("id", "=", "FIX-006")
            .execute();
          assert.deepEqual((await readDashboard(db, NOW)).totals, d.totals);
        });

        await t.step("the exclusions are audited with the lists before and after", async () => {
          const row = await db.selectFrom("audit_log").select(["action", "target_id", "after"])
            .where("target_id", "=", "dashboardExclusions").executeTakeFirstOrThrow();
          assert.deepEqual(row, {
            action: "settings.update",
            target_id: "dashboardExclusions",
            after: { excludedAccounts: ["internal ONE"], hiddenResellerNames: ["HIDDEN SHOP"] },
          });
        });
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name: `[dashboard:${backend}] after seeded writes the figures equal a recount, folded or not`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const { alpha, bravo } = await seedDashboardFixture(db, NOW);
        const before = await readDashboard(db, NOW);
        assert.ok(await rollUpDashboard(db) > 0, "the fixture's successful orders left lines");
        assert.deepEqual(await readDashboard(db, NOW), before, "folding changes no figure");
        assert.equal(await rollUpDashboard(db), 0, "a fold takes each line once");

        // Seed 7: orders placed over 40 days, moved between statuses, repriced, re-dated, deleted.
        const random = createSeededRandom(7);
        const int = (n: number) => Math.floor(random() * n);
        const statuses = ["new", "pending", "successful", "error"] as const;
        const ids: string[] = [];
        for (let round = 0; round < 6; round++) {
          for (let i = 0; i < 30; i++) {
            const id = `SEED-${round}-${i}`;
            ids.push(id);
            await db.insertInto("orders").values({
              id,
              buyer_type: "reseller",
              status: statuses[int(4)],
              reseller_id: [alpha, bravo][int(2)],
              game: "Mobile Legends",
              package: ["mlbb", "mlbb_special", null][int(3)],
              item: "Seeded item",
              denom: "1",
              user_id: "12345678",
              amount_cents: 100 + int(5000),
              cost: `${int(4000)}.${int(10000)}`,
              supplier: "elephant",
              created_at: new Date(NOW.getTime() - int(40 * 24) * 3_600_000 - int(3_600_000)),
            }).execute();
          }
          for (let i = 0; i < 40; i++) {
            const id = ids[int(ids.length)];
            const change = int(4);
            const q = db.updateTable("orders").where("id", "=", id);
            if (change === 0) await q.set({ status: statuses[int(4)] }).execute();
            else if (change === 1) await q.set({ amount_cents: 100 + int(5000) }).execute();
            else if (change === 2) {
              await q.set({ created_at: new Date(NOW.getTime() - int(40 * 24) * 3_600_000) })
                .execute();
            } else await db.deleteFrom("orders").where("id", "=", id).execute();
          }
          assert.deepEqual(await checkDashboardTotals(db), [], `round ${round}, not folded`);
          if (round % 2 === 0) await rollUpDashboard(db);
          assert.deepEqual(await checkDashboardTotals(db), [], `round ${round}`);
        }
        const unfolded = await readDashboard(db, NOW);
        await rollUpDashboard(db);
        assert.deepEqual(await readDashboard(db, NOW), unfolded);
        assert.equal(
          await db.selectFrom("dashboard_changes").select("day").execute().then((r) => r.length),
          0,
        );
      });
    } finally {
      await tdb.drop();
    }
  },
});
