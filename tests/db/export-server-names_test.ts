import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
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
        const order = (id: string, serverId: string, gameId: string | null) => ({
          id,
          buyer_type: "consumer" as const,
          status: "cancelled" as const,
          game_id: gameId,
          game: "Genshin Impact",
          item: "60 Genesis Crystals",
          denom: "60",
          user_id: "812345678",
          server_id: serverId,
          amount_cents: 100,
          cost: "0.9",
          supplier: "elephant",
          consumer_id: null,
          consumer_name: "Ana",
          consumer_email: "ana@example.com",
          consumer_phone: "+6581234567",
          reseller_id: null,
          reseller_name: null,
          old_balance_cents: null,
          new_balance_cents: null,
          package: null,
          package_ed_name: null,
          supplier_order_id: null,
          payment_provider: "manual",
          payment_reference: null,
          last_error: null,
          review_since: null,
          review_reason: null,
        });
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
