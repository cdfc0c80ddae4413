// The admin Orders screen's calls (spec §2 Admin console 'Orders', §7 GET /api/orders, §9 page
// size and admin export columns): the database pages and searches, only admins are answered, manual
// payments are settled once and audited, and both exports open in exceljs with the spec's columns.
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { createTestDatabase, type TestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInAdmin, signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findResellerByEmail } from "../../src/db/repositories/resellers.ts";
import type { NewOrder } from "../../src/db/schema.ts";
import { businessWallClock, formatBusinessDate } from "../../src/shared/business-time.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Spec §9: the admin export's columns, in order. */
const ADMIN_HEADER = [
  "Order ID",
  "Date",
  "Game",
  "Package",
  "User Name",
  "User ID",
  "Server ID",
  "Item",
  "Amount",
  "Cost",
  "Profit",
  "Reseller",
  "Old Balance",
  "New Balance",
  "Status",
];

const RESELLER_ORDERS = 45;
const CONSUMER_ORDERS = 25;
const RESELLER_STATUSES = ["successful", "pending", "error", "new", "successful"] as const;
/** Reseller orders whose user name holds "Zed" (search: case-insensitive substring). */
const ZED = [4, 17, 30];

/** Reseller order i, one minute apart: order 0 is the newest. */
function resellerOrder(i: number, reseller: { id: string; name: string }): NewOrder {
  return {
    id: `R-${String(i).padStart(4, "0")}`,
    buyer_type: "reseller",
    status: RESELLER_STATUSES[i % RESELLER_STATUSES.length],
    reseller_id: reseller.id,
    reseller_name: reseller.name,
    old_balance_cents: 100_000 + i * 200,
    new_balance_cents: 100_000 + i * 200 - 152,
    game: "Mobile Legends",
    package: "mlbb",
    item: "86 Diamonds",
    denom: "86",
    user_id: String(20_000_000 + i),
    server_id: "2001",
    user_name: ZED.includes(i) ? `zEd player ${i}` : `Player ${i}`,
    amount_cents: 152,
    cost: "1.4035",
    supplier: "elephant",
    created_at: new Date(Date.parse("2025-06-01T12:00:00Z") - i * 60_000),
  };
}

/** Consumer order i: 0 and 1 wait for a manual payment, 2 for HitPay, the rest are delivered. */
function consumerOrder(i: number): NewOrder {
  return {
    id: `C-${String(i).padStart(4, "0")}`,
    buyer_type: "consumer",
    status: i < 3 ? "pending-customer-payment" : "successful",
    consumer_name: `Buyer ${i}`,
    consumer_email: i === 9 ? "nine@Example.test" : `buyer${i}@shop.test`,
    consumer_phone: `+65 8000 ${String(i).padStart(4, "0")}`,
    game: "Mobile Legends",
    package: "mlbb",
    item: "172 Diamonds",
    denom: "172",
    user_id: String(30_000_000 + i),
    server_id: "3001",
    user_name: `Gamer ${i}`,
    amount_cents: 320,
    cost: "2.9",
    supplier: "elephant",
    payment_provider: i < 2 ? "manual" : "hitpay",
    created_at: new Date(Date.parse("2025-06-02T12:00:00Z") - i * 60_000),
  };
}

async function download(client: TestClient, path: string) {
  const response = await fetch(new URL(path, client.base), {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function openSheet(bytes: Uint8Array): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
  assert.deepEqual(workbook.worksheets.map((s) => s.name), ["Orders"]);
  return workbook.getWorksheet("Orders")!;
}

const rowValues = (sheet: ExcelJS.Worksheet, n: number) =>
  (sheet.getRow(n).values as unknown[]).slice(1);

Deno.test({
  name: "[admin orders] the server pages and searches both tabs; exports carry the admin columns",
  ...opts,
  async fn(t) {
    const tdb: TestDatabase = await createTestDatabase();
    // PGlite belongs to one process: rows go in before the server opens the database.
    const reseller = await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const row = (await findResellerByEmail(db, DEMO_RESELLER.email))!;
      const reseller = { id: row.id, name: row.name };
      await db.insertInto("orders").values(
        Array.from({ length: RESELLER_ORDERS }, (_, i) => resellerOrder(i, reseller)),
      ).execute();
      await db.insertInto("orders").values(
        Array.from({ length: CONSUMER_ORDERS }, (_, i) => consumerOrder(i)),
      ).execute();
      return reseller;
    });

    await t.step(
      "a search is answered by the trigram index, not by reading every order",
      async () => {
        const plan = await withHandle(tdb, (db) =>
          db.transaction().execute(async (trx) => {
            // A few dozen rows would be read whole anyway, or walked in date order: forbid both to
            // see that the search condition itself can be answered from an index.
            await sql`SET LOCAL enable_seqscan = off`.execute(trx);
            await sql`SET LOCAL enable_indexscan = off`.execute(trx);
            const rows = await sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT id FROM orders
            WHERE search_text LIKE '%zed%'`.execute(trx);
            return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
          }));
        assert.match(plan, /orders_search_trgm/, plan);
      },
    );

    const server: TestServer = await startTestServer(tdb);
    let running = true;
    try {
      const admin = await signInDemoAdmin(server.url);
      const resellerClient = await signInDemoReseller(server.url);

      await t.step("Resellers tab: 20 a page, newest first, every order once", async () => {
        const seen: string[] = [];
        for (const page of [1, 2, 3]) {
          const r = await admin.get(`/api/orders?buyerType=reseller&page=${page}`);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json.total, RESELLER_ORDERS);
          assert.equal(r.json.pageSize, 20);
          assert.equal(r.json.page, page);
          assert.equal(r.json.orders.length, page < 3 ? 20 : 5, "never more than a page");
          seen.push(...r.json.orders.map((o: { id: string }) => o.id));
        }
        const expected = Array.from(
          { length: RESELLER_ORDERS },
          (_, i) => resellerOrder(i, reseller).id,
        );
        assert.deepEqual(seen, expected);
        const first = (await admin.get("/api/orders")).json;
        assert.equal(first.orders[0].id, "R-0000", "the Resellers tab is the default");
        // Statuses cycle successful, pending, error, new, successful: 9 pending and 9 new.
        assert.equal(first.openCount, 18);
        const pending = first.orders.find((o: { id: string }) => o.id === "R-0001");
        assert.deepEqual(
          { ...pending, date: undefined },
          {
            id: "R-0001",
            status: "pending",
            date: undefined,
            game: "Mobile Legends",
            package: "mlbb",
            packageEDName: "",
            userName: "Player 1",
            userID: "20000001",
            serverID: "2001",
            item: "86 Diamonds",
            amount: 1.52,
            cost: 1.4035,
            supplierOrderID: "",
            denom: "86",
            buyerType: "reseller",
            reseller: {
              id: reseller.id,
              name: reseller.name,
              oldBalance: 1002,
              newBalance: 1000.48,
            },
            consumer: null,
            lastError: "",
            refreshable: true,
            awaitsManualPayment: false,
            refund: null,
          },
        );
        assert.equal(pending.date, "2025-06-01T11:59:00.000Z");
        const successful = first.orders.find((o: { id: string }) => o.id === "R-0000");
        assert.equal(successful.refreshable, false, "only new or pending can be refreshed");
      });

      await t.step("the search runs on the server: case-insensitive substrings", async () => {
        const zed = await admin.get("/api/orders?buyerType=reseller&search=ZED%20p");
        assert.equal(zed.status, 200, zed.text);
        assert.equal(zed.json.total, ZED.length);
        assert.deepEqual(
          zed.json.orders.map((o: { userName: string }) => o.userName),
          ZED.map((i) => `zEd player ${i}`),
        );
        const byId = await admin.get("/api/orders?buyerType=reseller&search=r-004");
        assert.deepEqual(
          byId.json.orders.map((o: { id: string }) => o.id),
          ["R-0040", "R-0041", "R-0042", "R-0043", "R-0044"],
        );
        const byStatus = await admin.get("/api/orders?buyerType=reseller&search=error");
        assert.equal(byStatus.json.total, 9);
        // LIKE's wildcards are matched as text: "%" finds nothing, "_" neither.
        for (const literal of ["%", "_", "R_0"]) {
          const r = await admin.get(`/api/orders?search=${encodeURIComponent(literal)}`);
          assert.equal(r.json.total, 0, literal);
        }
        const none = await admin.get("/api/orders?search=nobody-has-this");
        assert.deepEqual([none.json.total, none.json.orders], [0, []]);
        assert.equal(none.json.openCount, 18, "the button counts the tab, not the search");
      });

      await t.step("Consumers tab: the customer's details, manual payments flagged", async () => {
        const r = await admin.get("/api/orders?buyerType=consumer");
        assert.equal(r.json.total, CONSUMER_ORDERS);
        assert.equal(r.json.orders.length, 20);
        const [manual, , hitpay] = r.json.orders;
        assert.deepEqual(manual.consumer, {
          name: "Buyer 0",
          email: "buyer0@shop.test",
          phone: "+65 8000 0000",
        });
        assert.equal(manual.reseller, null);
        assert.equal(manual.awaitsManualPayment, true);
        assert.equal(hitpay.awaitsManualPayment, false, "HitPay orders are paid by HitPay only");
        assert.equal(r.json.openCount, 0);
        const byEmail = await admin.get("/api/orders?buyerType=consumer&search=NINE@example");
        assert.deepEqual(byEmail.json.orders.map((o: { id: string }) => o.id), ["C-0009"]);
        const otherTab = await admin.get("/api/orders?buyerType=reseller&search=buyer");
        assert.equal(otherTab.json.total, 0, "a tab never lists the other buyers' orders");
      });

      await t.step("bad queries are a 400 that says what is wrong", async () => {
        for (const query of ["buyerType=everyone", "page=0", "page=two"]) {
          const r = await admin.get(`/api/orders?${query}`);
          assert.equal(r.status, 400, query);
          assert.ok(r.json.error, query);
        }
      });

      await t.step("a reseller or Staff session gets 403, a signed-out one 401", async () => {
        const anonymous = new TestClient(server.url);
        for (const path of ["/api/orders", "/api/orders/export"]) {
          assert.equal((await resellerClient.get(path)).status, 403, path);
          assert.equal((await anonymous.get(path)).status, 401, path);
        }
        // The refresh calls are shared with the reseller portal: an admin rank is still checked.
        const created = await admin.post("/api/user", {
          name: "Sam Staff",
          email: "staff@ops.test",
          rank: "Staff",
          password: "a long staff password",
        });
        assert.equal(created.status, 201, created.text);
        const staff = (await signInAdmin(server.url, "staff@ops.test", "a long staff password"))
          .client;
        for (
          const path of [
            "/api/reseller/order/R-0001/refresh_status",
            "/api/reseller/orders/refresh_all_status",
          ]
        ) {
          assert.equal((await staff.post(path, {})).status, 403, path);
        }
        assert.equal((await staff.get("/api/orders")).status, 403);
        const settle = "/api/orders/C-0000/confirm-payment";
        assert.equal((await resellerClient.post(settle, {})).status, 403);
        assert.equal((await anonymous.post(settle, {})).status, 401);
        const after = await admin.get("/api/orders?buyerType=consumer&search=C-0000");
        assert.equal(after.json.orders[0].status, "pending-customer-payment", "nothing changed");
      });

      await t.step("an admin confirms one manual payment and cancels another, once", async () => {
        const confirmed = await admin.post("/api/orders/C-0000/confirm-payment", {});
        assert.equal(confirmed.status, 200, confirmed.text);
        assert.equal(confirmed.json.order.status, "payment-received-pending-disbursement");
        assert.equal(confirmed.json.order.awaitsManualPayment, false);
        const again = await admin.post("/api/orders/C-0000/confirm-payment", { cancel: true });
        assert.equal(again.status, 409, "no longer awaiting payment");
        const cancelled = await admin.post("/api/orders/C-0001/confirm-payment", { cancel: true });
        assert.equal(cancelled.status, 200, cancelled.text);
        assert.equal(cancelled.json.order.status, "cancelled");
        const hitpay = await admin.post("/api/orders/C-0002/confirm-payment", {});
        assert.equal(hitpay.status, 404, "a HitPay order is not the admin's to mark paid");
        const reseller = await admin.post("/api/orders/R-0001/confirm-payment", {});
        assert.equal(reseller.status, 404);
        const bad = await admin.post("/api/orders/C-0002/confirm-payment", { cancel: "yes" });
        assert.equal(bad.status, 400);
      });

      await t.step(
        "an admin refreshes through the spec's refresh call; unknown ids 404",
        async () => {
          const done = await admin.post("/api/reseller/order/R-0000/refresh_status", {
            denom: "86",
          });
          assert.equal(done.status, 200, done.text);
          assert.equal(done.json.order.status, "successful", "a finished order stays as it is");
          const unknown = await admin.post("/api/reseller/order/NOPE/refresh_status", {});
          assert.equal(unknown.status, 404);
        },
      );

      await t.step(
        "Export: the current tab and search, with the spec §9 admin columns",
        async () => {
          const { response, bytes } = await download(
            admin,
            "/api/orders/export?buyerType=reseller&search=zed",
          );
          assert.equal(response.status, 200, new TextDecoder().decode(bytes));
          assert.equal(
            response.headers.get("content-disposition"),
            `attachment; filename="orders-${formatBusinessDate(new Date(), "yyyy-MM-dd")}.xlsx"`,
          );
          const sheet = await openSheet(bytes);
          assert.deepEqual(rowValues(sheet, 1), ADMIN_HEADER);
          assert.equal(sheet.rowCount, 1 + ZED.length);
          const zed = resellerOrder(ZED[0], reseller);
          assert.deepEqual(rowValues(sheet, 2), [
            zed.id,
            businessWallClock(zed.created_at as Date),
            "Mobile Legends",
            "mlbb",
            zed.user_name,
            zed.user_id,
            "2001",
            "86 Diamonds",
            1.52,
            1.4035,
            0.1165,
            reseller.name,
            1008,
            1006.48,
            "Success",
          ]);

          const consumers = await openSheet(
            (await download(admin, "/api/orders/export?buyerType=consumer")).bytes,
          );
          assert.deepEqual(rowValues(consumers, 1), ADMIN_HEADER);
          assert.equal(consumers.rowCount, 1 + CONSUMER_ORDERS);
          const first = rowValues(consumers, 2);
          assert.deepEqual([first[0], first[8], first[9], first[10]], ["C-0000", 3.2, 2.9, 0.3]);
          assert.equal(consumers.getRow(2).getCell(12).value, null, "consumer orders: no reseller");
        },
      );

      // The CLI opens the database itself: PGlite allows one process at a time.
      await server.stop();
      running = false;
      await t.step(
        "CLI: orders export --from --to writes the admin columns for those days",
        async () => {
          const out = await Deno.makeTempFile({ suffix: ".xlsx" });
          const run = await new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "-A",
              "cli/main.ts",
              "orders",
              "export",
              "--from",
              "2025-06-01",
              "--to",
              "2025-06-01",
              "--out",
              out,
            ],
            env: { ...tdb.env, TZ: "UTC" },
          }).output();
          const stderr = new TextDecoder().decode(run.stderr);
          assert.equal(run.code, 0, stderr);
          assert.match(stderr, /\[#{30}\] 100% 45\/45/, "the progress bar reaches the total");
          assert.match(new TextDecoder().decode(run.stdout), /Exported 45 order\(s\) to /);
          const sheet = await openSheet(await Deno.readFile(out));
          assert.deepEqual(rowValues(sheet, 1), ADMIN_HEADER);
          // 1 June holds the reseller orders only: the consumer orders are all on 2 June.
          assert.equal(sheet.rowCount, 1 + RESELLER_ORDERS);
          assert.equal(sheet.getRow(2).getCell(1).value, "R-0000");
          await Deno.remove(out);

          const bad = await new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "-A",
              "cli/main.ts",
              "orders",
              "export",
              "--from",
              "1 June",
              "--out",
              out,
            ],
            env: tdb.env,
          }).output();
          assert.equal(bad.code, 1);
          assert.match(new TextDecoder().decode(bad.stderr), /--from must be a date such as/);
        },
      );

      await t.step("each settlement left one audit row naming the admin", async () => {
        const rows = await withHandle(
          tdb,
          (db) =>
            db.selectFrom("audit_log").select(["action", "target_id", "actor_type", "after"])
              .where("target_type", "=", "order").orderBy("id").execute(),
        );
        assert.deepEqual(rows.map((r) => [r.action, r.target_id, r.actor_type]), [
          ["order.confirm_manual_payment", "C-0000", "admin"],
          ["order.cancel_manual_payment", "C-0001", "admin"],
        ]);
      });
    } finally {
      if (running) await server.stop();
      await tdb.drop();
    }
  },
});
