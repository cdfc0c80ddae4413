import type { Command } from "commander";
import { refreshOpenOrders } from "../src/domain/orders/reseller-orders.ts";
import { cliSuppliers, note, report, resolveCliOrigin, withDb } from "./io.ts";

/** `orders refresh [--pending]`: reconciles open orders with the suppliers (cron-safe). */
export function registerOrdersRefresh(orders: Command): void {
  orders
    .command("refresh")
    .description(
      "Ask the suppliers about every new or pending reseller order and every paid consumer order " +
        "not yet delivered, and move each forward (refunding reseller failures once); safe to " +
        "run from cron, also in parallel. Exits 1 when any order could not be checked (its " +
        "supplier did not answer)",
    )
    .option("--pending", "only orders already accepted by a supplier (status pending)")
    .option("--json", "print the result as JSON")
    .action(async (opts: { pending?: boolean; json?: boolean }) => {
      const suppliers = cliSuppliers();
      resolveCliOrigin();
      const unchecked: string[] = [];
      const result = await withDb((db) =>
        refreshOpenOrders(db, suppliers, {
          onlyPending: !!opts.pending,
          onProgress: (done, total) => {
            if (!opts.json && (done % 50 === 0 || done === total)) note(`checked ${done}/${total}`);
          },
          onUnchecked: (id, reason) => unchecked.push(`  ${id}: ${reason}`),
        })
      );
      const summary = `${result.checked} open order(s): ${result.checked - result.failed} ` +
        `checked, ${result.failed} could not be checked`;
      if (opts.json) console.log(JSON.stringify(result));
      else if (result.failed) console.log(summary);
      else report(summary);
      if (!result.failed) return;
      // An order nobody could tell about is not reconciled: the run failed, and says which.
      console.error(`Could not check ${result.failed} order(s) at the supplier:`);
      for (const line of unchecked.sort()) console.error(line);
      Deno.exitCode = 1;
    });
}
