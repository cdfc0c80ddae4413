import type { Command } from "commander";
import { listGamesForAdmin } from "../src/domain/catalogue/games.ts";
import {
  listElitediasGames,
  listMoogoldGames,
} from "../src/domain/catalogue/supplier-catalogue.ts";
import { launchFromSupplier } from "../src/domain/catalogue/supplier-launch.ts";
import {
  type PriceChange,
  syncAllGames,
  syncGameBySupplierName,
  type SyncReport,
} from "../src/domain/catalogue/price-sync.ts";
import { listGameRoutesByName } from "../src/domain/catalogue/item-routes.ts";
import { cliActor } from "../src/domain/actor.ts";
import { cliSuppliers, report, withDb } from "./io.ts";

function supplierKind(value: string): "elephant" | "monkey" {
  if (value === "ed" || value === "elephant") return "elephant";
  if (value === "mg" || value === "monkey") return "monkey";
  throw new Error(`--supplier must be ed or mg, got '${value}'`);
}

function percent(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a percent like 8.8`);
  return n;
}

/** A cost change as an operator checks it: from, to, and by how much (supplier precision). */
function describeChange(change: PriceChange): string {
  const delta = change.to - change.from;
  const digits = Math.max(2, ...[change.from, change.to].map((n) => decimalsOf(n)));
  const percent = change.from
    ? ` ${delta > 0 ? "+" : ""}${(delta / change.from * 100).toFixed(1)}%`
    : "";
  return `          ${change.package ? `${change.package} › ` : ""}${change.item}: cost ` +
    `${change.from.toFixed(digits)} → ${change.to.toFixed(digits)} ` +
    `(${delta > 0 ? "+" : ""}${delta.toFixed(digits)}${percent})`;
}

function decimalsOf(n: number): number {
  return String(n).split(".")[1]?.length ?? 0;
}

/** A game's sync: one line, and one more per changed cost. */
function describe(report: SyncReport): string[] {
  if (!report.ok) return [`FAILED  ${report.game}: ${report.error} (prices unchanged)`];
  const missing = report.missing.length ? `; no longer offered: ${report.missing.join(", ")}` : "";
  const servers = report.serversUpdated ? "; server list updated" : "";
  return [
    `ok      ${report.game}: ${report.changed} price(s) changed${missing}${servers}`,
    ...report.changes.map(describeChange),
  ];
}

/** `games list`, `games routes`, `suppliers games`, `launch`, `sync-prices`. */
export function registerCatalogueCommands(program: Command): void {
  const games = program
    .command("games")
    .description("Games in the catalogue");
  games
    .command("list")
    .description("List every game with its supplier, item count and flags")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const games = await withDb((db) => listGamesForAdmin(db));
      if (opts.json) return console.log(JSON.stringify(games, null, 2));
      for (const g of games) {
        const items = g.hasPackages
          ? g.packages.reduce((n, p) => n + p.gameItems.length, 0)
          : g.gameItems.length;
        const flags = [g.isHidden && "hidden", g.isOutOfStock && "out of stock"].filter(Boolean);
        console.log(
          `${
            String(g.priority).padStart(3)
          }  ${g.name}  [${g.supplier}:${g.supplierName}]  ${items} items${
            flags.length ? `  (${flags.join(", ")})` : ""
          }`,
        );
      }
    });

  games
    .command("routes")
    .description(
      "List each item's routes: the suppliers an order goes to in turn when one refuses it " +
        "outright (its own supplier first)",
    )
    .argument("<game>", "the game's name, supplier key (e.g. pubgm) or id")
    .option("--json", "print JSON")
    .action(async (game: string, opts: { json?: boolean }) => {
      const routes = await withDb((db) => listGameRoutesByName(db, game));
      if (opts.json) return console.log(JSON.stringify(routes, null, 2));
      if (routes.unavailable) return console.log(routes.unavailable);
      for (const item of routes.items) {
        console.log(item.itemName);
        item.routes.forEach((r, i) =>
          console.log(`  ${i + 1}. ${r.supplierLabel}  ${r.game}  ${r.item}  cost ${r.cost}`)
        );
      }
    });

  program
    .command("suppliers")
    .description("Supplier catalogues")
    .command("games")
    .description("List the games a supplier sells")
    .requiredOption("--supplier <ed|mg>", "ed = EliteDias, mg = MooGold")
    .option("--json", "print JSON")
    .action(async (opts: { supplier: string; json?: boolean }) => {
      const suppliers = cliSuppliers();
      const games = supplierKind(opts.supplier) === "elephant"
        ? (await listElitediasGames(suppliers)).map((code) => ({ id: code, name: code }))
        : (await listMoogoldGames(suppliers)).map((p) => ({ id: p.ID, name: p.post_title }));
      if (opts.json) return console.log(JSON.stringify(games, null, 2));
      for (const g of games) console.log(g.id === g.name ? g.id : `${g.id}  ${g.name}`);
    });

  program
    .command("launch")
    .description("Launch a supplier game, as the launch form does")
    .requiredOption("--supplier <ed|mg>", "ed = EliteDias, mg = MooGold")
    .requiredOption("--game <code-or-id>", "EliteDias game code or MooGold product id")
    .requiredOption("--name <name>", "the game's name in the store")
    .option("--tagline <text>", "tagline", "")
    .option("--currency <name>", "game currency appended to digits-only item names", "")
    .option("--consumer-markup <percent>", "consumer markup %", "0")
    .option("--reseller-markup <percent>", "reseller markup % for all resellers", "0")
    .option("--hidden", "launch hidden")
    .option("--json", "print JSON")
    .action(async (opts: {
      supplier: string;
      game: string;
      name: string;
      tagline: string;
      currency: string;
      consumerMarkup: string;
      resellerMarkup: string;
      hidden?: boolean;
      json?: boolean;
    }) => {
      const suppliers = cliSuppliers();
      const game = await withDb((db) =>
        launchFromSupplier(db, suppliers, {
          supplier: supplierKind(opts.supplier),
          game: opts.game,
          name: opts.name,
          tagline: opts.tagline,
          gameCurrency: opts.currency,
          consumerMarkup: percent(opts.consumerMarkup, "--consumer-markup"),
          resellerMarkupAll: percent(opts.resellerMarkup, "--reseller-markup"),
          isHidden: !!opts.hidden,
        }, { _id: null, name: cliActor().name })
      );
      if (opts.json) return console.log(JSON.stringify(game, null, 2));
      console.log(
        `Launched ${game.name} (${game.gameItems.length} items, priority ${game.priority})`,
      );
    });

  program
    .command("sync-prices")
    .description(
      "Re-read supplier costs for launched games; prints each changed cost (from, to, by how " +
        "much); exits 1 if any game failed",
    )
    .option("--game <supplierName>", "only this game (its supplier key, e.g. mlbb or pubgm)")
    .option("--json", "print JSON")
    .action(async (opts: { game?: string; json?: boolean }) => {
      const suppliers = cliSuppliers();
      // A failure is printed even with --quiet: it is what a person must look at.
      const print = (r: SyncReport) => {
        if (opts.json) return;
        for (const line of describe(r)) (r.ok ? report : console.log)(line);
      };
      const reports = await withDb(async (db) =>
        opts.game
          ? [await syncGameBySupplierName(db, suppliers, opts.game).then((r) => (print(r), r))]
          : await syncAllGames(db, suppliers, print)
      );
      const failed = reports.filter((r) => !r.ok).length;
      const summary = `${reports.length} game(s) synced, ${failed} failed`;
      if (opts.json) console.log(JSON.stringify(reports, null, 2));
      else (failed ? console.log : report)(summary);
      if (failed) Deno.exitCode = 1;
    });
}
