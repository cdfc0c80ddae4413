import type { Command } from "commander";
import { refreshOpenOrders } from "../src/domain/orders/reseller-orders.ts";
import { cliSiteUrl, cliSuppliers, withDb } from "./io.ts";

/** `orders refresh [--pending]`: reconciles open orders with the suppliers (cron-safe). */
export function registerOrdersRefresh(orders: Command): void {
  orders
    .command("refresh")
    .description(
      "Ask the suppliers about every new or pending reseller order and every paid consumer order " +
        "not yet delivered, and move each forward (refunding reseller failures once); safe to " +
        "run from cron, also in parallel",
    )
    .option("--pending", "only orders already accepted by a supplier (status pending)")
    .option("--json", "print the result as JSON")
    .action(async (opts: { pending?: boolean; json?: boolean }) => {
      const suppliers = cliSuppliers();
      const result = await withDb((db) =>
        refreshOpenOrders(db, suppliers, {
          onlyPending: !!opts.pending,
          siteUrl: cliSiteUrl(),
          onProgress: (done, total) => {
            if (!opts.json && (done % 50 === 0 || done === total)) {
              console.error(`checked ${done}/${total}`);
            }
          },
        })
      );
      if (opts.json) console.log(JSON.stringify(result));
      else {console.log(
          `${result.checked} open order(s) checked, ${result.failed} could not be checked`,
        );}
      if (result.failed) Deno.exitCode = 1;
    });
}
