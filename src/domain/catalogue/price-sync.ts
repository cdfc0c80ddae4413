import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import { listGameRows, updateGameCatalogue } from "../../db/repositories/games.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import { isSupplierKey } from "../../integrations/supplier-registry.ts";
import type { GameItemDto, GamePackageDto } from "../../shared/game-types.ts";
import { readSupplierOffer, readSupplierServers } from "./launch.ts";
import { findMobileLegendsRow, MLBB_SUPPLIER_NAME } from "./games.ts";
import { NotFoundError } from "../errors.ts";
import { syncItemRouteCosts } from "./item-routes.ts";
import { supplierProfile } from "../../integrations/supplier-registry.ts";

/** What one game's sync did; a failed game kept its prices. */
export interface SyncReport {
  game: string;
  supplierName: string;
  ok: boolean;
  /** Items whose cost changed. */
  changed: number;
  /** Each item whose cost changed, from what to what (the supplier's cost, its currency). */
  changes: PriceChange[];
  /** Items the supplier no longer offers (left as they were). */
  missing: string[];
  /** Whether the game's server list was replaced by the supplier's. */
  serversUpdated: boolean;
  error?: string;
}

/** One item's new cost at its supplier. */
export interface PriceChange {
  item: string;
  /** The package it is in, for a game sold in packages (Mobile Legends). */
  package?: string;
  from: number;
  to: number;
}

function repriceItems(
  items: GameItemDto[],
  offer: Map<string, { cost: string }>,
  report: Pick<SyncReport, "missing" | "changes">,
  packageName?: string,
): GameItemDto[] {
  return items.map((item) => {
    const current = offer.get(item.nameSupplier);
    if (!current) {
      report.missing.push(item.nameSupplier);
      return item;
    }
    const cost = Number(current.cost);
    if (cost === item.cost) return item;
    report.changes.push({
      item: item.nameReseller,
      ...(packageName === undefined ? {} : { package: packageName }),
      from: item.cost,
      to: cost,
    });
    return { ...item, cost };
  });
}

/**
 * The supplier's server list when it has one that the game does not carry yet (launched before
 * the list existed, or seeded without it); undefined when there is nothing to store. A supplier
 * that does not answer leaves the servers alone: the prices still sync.
 */
async function supplierServersToStore(
  suppliers: Suppliers,
  row: GameRow,
): Promise<Record<string, string> | undefined> {
  const list = await readSupplierServers(
    suppliers,
    row.supplier,
    row.supplier_name,
    row.supplier_game_id ?? "",
  );
  if (!list || !Object.keys(list).length) return undefined;
  return sameServers(list, row.servers) ? undefined : list;
}

function sameServers(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

/**
 * Re-reads supplier costs for one launched game (for Mobile Legends, each package from its own
 * EliteDias game) and stores them, with the supplier's server list when it has one, and its items'
 * routes' costs from their suppliers. A supplier that fails leaves the game unchanged.
 */
export async function syncGameRow(db: Db, suppliers: Suppliers, row: GameRow): Promise<SyncReport> {
  const report: SyncReport = {
    game: row.name,
    supplierName: row.supplier_name,
    ok: false,
    changed: 0,
    changes: [],
    missing: [],
    serversUpdated: false,
  };
  const supplier = row.supplier;
  if (!isSupplierKey(supplier)) {
    return { ...report, error: "not a supplier game" };
  }
  let gameItems = row.game_items as GameItemDto[];
  let packages = row.packages as GamePackageDto[];
  let servers: Record<string, string> | undefined;
  if (row.has_packages) {
    const next: GamePackageDto[] = [];
    for (const pkg of packages) {
      const offer = await readSupplierOffer(suppliers, supplier, pkg.supplierPackageName, "");
      if (!offer) return { ...report, error: `supplier did not answer for ${pkg.name}` };
      next.push({ ...pkg, gameItems: repriceItems(pkg.gameItems, offer, report, pkg.name) });
    }
    packages = next;
  } else {
    const offer = await readSupplierOffer(
      suppliers,
      supplier,
      row.supplier_name,
      row.supplier_game_id ?? "",
    );
    if (!offer) return { ...report, error: "supplier did not answer" };
    gameItems = repriceItems(gameItems, offer, report);
    servers = await supplierServersToStore(suppliers, row);
    report.serversUpdated = servers !== undefined;
  }
  const itemsChanged = report.changes.length > 0;
  const routes = row.has_packages ? undefined : await syncItemRouteCosts(db, suppliers, row.id);
  for (const change of routes?.changes ?? []) {
    const item = gameItems.find((i) => supplierProfile(supplier)?.itemKey(i) === change.itemKey);
    report.changes.push({
      item: `${item?.nameReseller ?? change.itemKey} via ${
        supplierProfile(change.supplier)?.name ?? change.supplier
      }`,
      from: change.from,
      to: change.to,
    });
  }
  report.missing.push(...routes?.missing ?? []);
  report.changed = report.changes.length;
  // Route costs live in their own rows: only the game's own items or servers change the game.
  if (itemsChanged || servers) {
    await updateGameCatalogue(db, row.id, { gameItems, packages, servers });
  }
  if (report.changed || servers) {
    await insertAudit(db, {
      actorType: "system",
      action: "game.sync_prices",
      targetType: "game",
      targetId: row.id,
      after: { changed: report.changed, changes: report.changes, ...(servers ? { servers } : {}) },
    });
  }
  return { ...report, ok: true };
}

/** POST /api/sync_prices/mlbb and /game/{supplierName}: one game by its supplier key. */
export async function syncGameBySupplierName(
  db: Db,
  suppliers: Suppliers,
  supplierName: string,
): Promise<SyncReport> {
  const rows = await listGameRows(db);
  const row = rows.find((r) => r.supplier_name === supplierName && r.supplier !== "others") ??
    (supplierName === MLBB_SUPPLIER_NAME ? await findMobileLegendsRow(db) : undefined);
  if (!row) throw new NotFoundError(`No launched game ${supplierName}`);
  return await syncGameRow(db, suppliers, row);
}

/** Every supplier game, one after the other; `onReport` sees each result as it comes. */
export async function syncAllGames(
  db: Db,
  suppliers: Suppliers,
  onReport: (report: SyncReport) => void = () => {},
): Promise<SyncReport[]> {
  const reports: SyncReport[] = [];
  for (const row of await listGameRows(db)) {
    if (!isSupplierKey(row.supplier)) continue;
    const report = await syncGameRow(db, suppliers, row);
    reports.push(report);
    onReport(report);
  }
  return reports;
}
