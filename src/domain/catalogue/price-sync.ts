import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import {
  findGameRowBySupplierName,
  listGameRows,
  updateGameCatalogue,
} from "../../db/repositories/games.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GameItemDto, GamePackageDto } from "../../shared/game-types.ts";
import { readSupplierOffer, readSupplierServers } from "./launch.ts";
import { MLBB_SUPPLIER_NAME } from "./games.ts";
import { NotFoundError } from "../errors.ts";

/** What one game's sync did; a failed game kept its prices. */
export interface SyncReport {
  game: string;
  supplierName: string;
  ok: boolean;
  /** Items whose cost changed. */
  changed: number;
  /** Items the supplier no longer offers (left as they were). */
  missing: string[];
  /** Whether the game's server list was replaced by the supplier's. */
  serversUpdated: boolean;
  error?: string;
}

function repriceItems(
  items: GameItemDto[],
  offer: Map<string, { cost: string }>,
  missing: string[],
): { items: GameItemDto[]; changed: number } {
  let changed = 0;
  const repriced = items.map((item) => {
    const current = offer.get(item.nameSupplier);
    if (!current) {
      missing.push(item.nameSupplier);
      return item;
    }
    const cost = Number(current.cost);
    if (cost === item.cost) return item;
    changed++;
    return { ...item, cost };
  });
  return { items: repriced, changed };
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
  const supplier = row.supplier as "monkey" | "elephant";
  const list = await readSupplierServers(
    suppliers,
    supplier,
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
 * EliteDias game) and stores them, with the supplier's server list when it has one. A supplier that fails leaves
 * the game unchanged.
 */
export async function syncGameRow(db: Db, suppliers: Suppliers, row: GameRow): Promise<SyncReport> {
  const report: SyncReport = {
    game: row.name,
    supplierName: row.supplier_name,
    ok: false,
    changed: 0,
    missing: [],
    serversUpdated: false,
  };
  const supplier = row.supplier;
  if (supplier !== "monkey" && supplier !== "elephant") {
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
      const r = repriceItems(pkg.gameItems, offer, report.missing);
      report.changed += r.changed;
      next.push({ ...pkg, gameItems: r.items });
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
    const r = repriceItems(gameItems, offer, report.missing);
    report.changed = r.changed;
    gameItems = r.items;
    servers = await supplierServersToStore(suppliers, row);
    report.serversUpdated = servers !== undefined;
  }
  if (report.changed || servers) {
    await updateGameCatalogue(db, row.id, { gameItems, packages, servers });
    await insertAudit(db, {
      actorType: "system",
      action: "game.sync_prices",
      targetType: "game",
      targetId: row.id,
      after: { changed: report.changed, ...(servers ? { servers } : {}) },
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
    (supplierName === MLBB_SUPPLIER_NAME
      ? await findGameRowBySupplierName(db, "elephant", MLBB_SUPPLIER_NAME)
      : undefined);
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
    if (row.supplier !== "monkey" && row.supplier !== "elephant") continue;
    const report = await syncGameRow(db, suppliers, row);
    reports.push(report);
    onReport(report);
  }
  return reports;
}
