import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { createTestDatabase, type TestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findResellerByEmail } from "../../src/db/repositories/resellers.ts";
import type { NewOrder } from "../../src/db/schema.ts";
import type { OrderExportRow } from "../../src/db/repositories/orders-export.ts";
import { ORDER_DATE_CELL_FORMAT, writeOrdersWorkbook } from "../../src/domain/orders/export.ts";
import { formatBusinessDate } from "../../src/shared/business-time.ts";
import { Writable } from "node:stream";
import { createTestReseller } from "../helpers/resellers.ts";

const HEADER = [
  "Order ID",
  "Date",
  "Game",
  "Package",
  "User Name",
  "User ID",
  "Server ID",
  "Item",
  "Amount",
  "Old Balance",
  "New Balance",
  "Status",
];
// More than two keyset batches of 1000, so batch boundaries are crossed.
const ORDERS = 2_500;
const OTHER = { name: "Other Reseller", email: "other@test.example", password: "other-pass-123" };
const opts = { sanitizeOps: false, sanitizeResources: false };

/**
 * Order i of a reseller. Four orders share each second; of those, two share the exact instant and
 * two differ from them only in microseconds, so a cursor that lost the microseconds or ignored the
 * id tie-break would skip or repeat rows at a batch boundary.
 */
function order(i: number, reseller: { id: string; name: string }): NewOrder {
  const second = Date.parse("2025-03-01T10:00:00Z") - Math.floor(i / 4) * 1000;
  const micros = [0, 0, 250, 500][i % 4];
  const iso = new Date(second).toISOString().replace("Z", `${String(micros).padStart(3, "0")}Z`);
  return {
    id: `${reseller.name.slice(0, 3).toUpperCase()}-${String(i).padStart(6, "0")}`,
    buyer_type: "reseller",
    status: (["successful", "pending", "error", "new"] as const)[i % 4],
    reseller_id: reseller.id,
    reseller_name: reseller.name,
    old_balance_cents: i === 7 ? null : 1_000_000 + i * 100,
    new_balance_cents: i === 7 ? null : 1_000_000 + i * 100 - 152,
    game: "Mobile Legends",
    package: i % 2 ? "mlbb_special" : null,
    item: "86 Diamonds",
    denom: "86",
    user_id: String(10_000_000 + i),
    server_id: String(1000 + (i % 10)),
    user_name: `Player ${i}`,
    amount_cents: 152 + i,
    cost: "1.40",
    supplier: "elephant",
    created_at: iso,
  };
}

async function download(client: TestClient, resellerId: string) {
  const response = await fetch(new URL(`/api/reseller/${resellerId}/orders/export`, client.base), {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes };
}

async function readSheet(bytes: Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
  return workbook;
}

function rowValues(sheet: ExcelJS.Worksheet, n: number): unknown[] {
  return (sheet.getRow(n).values as unknown[]).slice(1);
}

Deno.test({
  name: "[orders export] a reseller downloads exactly its own orders as the spec's Orders sheet",
  ...opts,
  async fn(t) {
    const tdb: TestDatabase = await createTestDatabase();
    // PGlite belongs to one process: rows go in before the server opens the database.
    const { demo, other, expectedIds } = await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const demoRow = (await findResellerByEmail(db, DEMO_RESELLER.email))!;
      const demo = { id: demoRow.id, name: demoRow.name };
      const created = await createTestReseller(db, {
        ...OTHER,
        balanceCents: 0,
      });
      const other = { id: created._id, name: created.name };
      const rows = Array.from({ length: ORDERS }, (_, i) => order(i, demo));
      for (let i = 0; i < rows.length; i += 500) {
        await db.insertInto("orders").values(rows.slice(i, i + 500)).execute();
      }
      await db.insertInto("orders").values([order(0, other), order(1, other)]).execute();
      await db.insertInto("orders").values({
        ...order(ORDERS, demo),
        id: "CONSUMER-1",
        buyer_type: "consumer",
        reseller_id: null,
      }).execute();
      const expected = await db.selectFrom("orders").select("id")
        .where("reseller_id", "=", demo.id).where("buyer_type", "=", "reseller")
        .orderBy("created_at", "desc").orderBy("id", "desc").execute();
      return { demo, other, expectedIds: expected.map((r) => r.id) };
    });
    const server: TestServer = await startTestServer(tdb);
    try {
      const reseller = await signInDemoReseller(server.url);

      await t.step("the download is an attachment named orders-<Singapore date>.xlsx", async () => {
        const { response, bytes } = await download(reseller, demo.id);
        assert.equal(response.status, 200, new TextDecoder().decode(bytes));
        assert.equal(
          response.headers.get("content-type"),
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        );
        assert.equal(
          response.headers.get("content-disposition"),
          `attachment; filename="orders-${formatBusinessDate(new Date(), "yyyy-MM-dd")}.xlsx"`,
        );
        const workbook = await readSheet(bytes);
        assert.deepEqual(workbook.worksheets.map((s) => s.name), ["Orders"]);
        const sheet = workbook.getWorksheet("Orders")!;
        assert.deepEqual(rowValues(sheet, 1), HEADER);
        assert.equal(sheet.rowCount, 1 + ORDERS, "one row per order, no other reseller's");

        const ids = Array.from({ length: ORDERS }, (_, i) => sheet.getRow(i + 2).getCell(1).value);
        assert.equal(new Set(ids).size, ORDERS, "no order repeated across batches");
        assert.deepEqual(ids, expectedIds, "newest first, ties by id, across batch boundaries");

        // Order 3 is the newest: the latest second and the most microseconds within it.
        // Dates are date cells holding Singapore's wall clock (a spreadsheet's dates have no
        // zone; 10:00 UTC is 6 pm there), statuses the words the Orders screen shows.
        const newest = order(3, demo);
        assert.deepEqual(rowValues(sheet, 2), [
          newest.id,
          new Date("2025-03-01T18:00:00Z"),
          "Mobile Legends",
          "mlbb_special",
          "Player 3",
          "10000003",
          "1003",
          "86 Diamonds",
          1.55,
          10003,
          10001.48,
          "New",
        ]);
        assert.equal(sheet.getRow(2).getCell(2).numFmt, ORDER_DATE_CELL_FORMAT);
        assert.equal(ORDER_DATE_CELL_FORMAT, 'd mmm yyyy, h:mm AM/PM "SGT"');
        assert.deepEqual(
          ids.slice(0, 4).map((_, i) => sheet.getRow(i + 2).getCell(12).value),
          ["New", "Error", "Pending", "Success"],
        );
        assert.equal(sheet.getRow(2).getCell(9).numFmt, "#,##0.00");
        const noBalance = ids.indexOf(order(7, demo).id) + 2;
        assert.equal(sheet.getRow(noBalance).getCell(10).value, null, "unknown balance: empty");
        const noPackage = ids.indexOf(order(0, demo).id) + 2;
        assert.equal(sheet.getRow(noPackage).getCell(4).value, null, "no package: empty cell");
      });

      await t.step("another reseller's id is a 404, a malformed id too", async () => {
        for (const id of [other.id, "not-a-uuid", crypto.randomUUID()]) {
          const { response, bytes } = await download(reseller, id);
          assert.equal(response.status, 404, id);
          assert.match(new TextDecoder().decode(bytes), /not found/);
        }
      });

      await t.step("the other reseller's own download holds its two orders only", async () => {
        const client = new TestClient(server.url);
        const login = await client.post("/api/login_reseller", {
          username: OTHER.email,
          password: OTHER.password,
        });
        assert.equal(login.status, 200, login.text);
        const sheet = (await readSheet((await download(client, other.id)).bytes))
          .getWorksheet("Orders")!;
        assert.equal(sheet.rowCount, 3, "its two orders");
        assert.deepEqual(rowValues(sheet, 1), HEADER);
      });

      await t.step("a download cancelled part-way leaves the server serving exports", async () => {
        const response = await fetch(
          new URL(`/api/reseller/${demo.id}/orders/export`, server.url),
          {
            headers: { cookie: [...reseller.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
          },
        );
        const reader = response.body!.getReader();
        assert.ok(!(await reader.read()).done);
        await reader.cancel();
        const again = await download(reseller, demo.id);
        assert.equal(again.response.status, 200);
        const sheet = (await readSheet(again.bytes)).getWorksheet("Orders")!;
        assert.equal(sheet.rowCount, 1 + ORDERS);
        assert.doesNotMatch(server.output(), /orders export failed|uncaught|error/i);
      });

      await t.step("an admin gets 403 and a signed-out caller 401", async () => {
        const admin = await signInDemoAdmin(server.url);
        assert.equal((await download(admin, demo.id)).response.status, 403);
        assert.equal((await download(new TestClient(server.url), demo.id)).response.status, 401);
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});

Deno.test("[orders export] rows reach the output while later batches are still being read", async () => {
  // PGlite answers queries without ever yielding to the event loop; this source does the same.
  const BATCHES = 40;
  let bytes = 0;
  let bytesWhenLastBatchRead = -1;
  async function* batches(): AsyncGenerator<OrderExportRow[]> {
    for (let b = 0; b < BATCHES; b++) {
      await Promise.resolve();
      if (b === BATCHES - 1) bytesWhenLastBatchRead = bytes;
      yield Array.from({ length: 1000 }, (_, i) => ({
        id: `ORD-${b}-${i}`,
        created_at: new Date(Date.UTC(2025, 0, 5, 7, 4) - (b * 1000 + i) * 1000),
        game_id: null,
        game: "Mobile Legends",
        package: "mlbb",
        user_name: `Player ${b}-${i}`,
        user_id: String(10_000_000 + b * 1000 + i),
        server_id: "1000",
        item: "86 Diamonds",
        amount_cents: 152,
        cost: "1.40",
        reseller_name: "Demo Reseller",
        old_balance_cents: 1_000_000,
        new_balance_cents: 999_848,
        status: "successful",
      }));
    }
  }
  const output = new Writable({
    write(chunk: Uint8Array, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  assert.equal(await writeOrdersWorkbook(batches(), output), BATCHES * 1000);
  assert.ok(
    bytesWhenLastBatchRead > bytes / 2,
    `${bytesWhenLastBatchRead} of ${bytes} bytes out before the last batch: rows are piling up`,
  );
});
