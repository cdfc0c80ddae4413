import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { consumerOrderRow } from "../helpers/orders.ts";
import { insertGameRow } from "../../src/db/repositories/games.ts";
import { exportOrders, RESELLER_ORDERS_SHEET } from "../../src/domain/orders/export.ts";

const backend = testBackend();

Deno.test({
  name: `[orders export:${backend}] a server is written by the name its game lists, not its code`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const game = await insertGameRow(db, {
          name: "Genshin Impact",
          consumer_markup: 8.8,
          reseller_markup: "{}",
          reseller_markup_all: 5,
          servers: JSON.stringify({ "Asia": "os_asia", "America": "os_usa" }),
          game_items: "[]",
          packages: "[]",
          faq: "[]",
          platforms: "[]",
          links: "{}",
        });
        const order = (id: string, serverId: string, gameId: string | null) =>
          consumerOrderRow({ id, server_id: serverId, game_id: gameId });
        await db.insertInto("orders").values([
          order("CSERVERNAME01", "os_asia", game.id),
          order("CSERVERNAME02", "2001", null),
        ]).execute();
        const output = new PassThrough();
        const chunks: Uint8Array[] = [];
        output.on("data", (chunk) => chunks.push(chunk));
        await exportOrders(db, { buyerType: "consumer" }, RESELLER_ORDERS_SHEET, output);
        const workbook = new ExcelJS.Workbook();
        const bytes = new Uint8Array(Buffer.concat(chunks));
        await workbook.xlsx.load(bytes.buffer as ArrayBuffer);
        const sheet = workbook.getWorksheet("Orders")!;
        const serverColumn = (sheet.getRow(1).values as unknown[]).indexOf("Server ID");
        const servers = [2, 3].map((n) => sheet.getRow(n).getCell(serverColumn).value);
        assert.deepEqual(servers.sort(), ["2001", "Asia"]);
      });
    } finally {
      await tdb.drop();
    }
  },
});
