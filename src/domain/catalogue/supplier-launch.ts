import type { Db } from "../../db/client.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GameDto } from "../../shared/game-types.ts";
import {
  type Actor,
  LAUNCH_FAILED,
  launchGame,
  LaunchGameSchema,
  readSupplierServers,
} from "./launch.ts";
import { UpstreamError } from "../errors.ts";
import { requireSupplierPort } from "../../integrations/supplier-registry.ts";

export interface SupplierLaunchOptions {
  /** The supplier's key (SUPPLIER_KEYS). */
  supplier: string;
  /** The game as the supplier names it: its code (EliteDias) or its product id (MooGold). */
  game: string;
  name: string;
  tagline?: string;
  gameCurrency?: string;
  consumerMarkup: number;
  resellerMarkupAll: number;
  isHidden?: boolean;
}

/**
 * Does what the launch form does for an operator: reads the supplier's fields and servers to
 * decide whether a server ID and a character name are needed, then launches with every item.
 */
export async function launchFromSupplier(
  db: Db,
  suppliers: Suppliers,
  options: SupplierLaunchOptions,
  actor: Actor,
): Promise<GameDto> {
  const port = requireSupplierPort(suppliers, options.supplier);
  const [details, serverList] = await Promise.all([
    port.readLaunchDetails(options.game),
    readSupplierServers(suppliers, options.supplier, options.game, options.game),
  ]);
  if (!details || !serverList) throw new UpstreamError(LAUNCH_FAILED);
  const { fields, supplierName, supplierNotes, supplierGameId } = details;
  const input = LaunchGameSchema.parse({
    name: options.name,
    tagline: options.tagline ?? "",
    supplier: options.supplier,
    supplierName,
    supplierNotes,
    supplierGameID: supplierGameId,
    consumerMarkup: options.consumerMarkup,
    resellerMarkupAll: options.resellerMarkupAll,
    requiresServerID: fields.some((f) => /server/i.test(f)) || Object.keys(serverList).length > 0,
    requiresCharacterName: fields.some((f) => /character|nickname|ign/i.test(f)),
    servers: serverList,
    isHidden: options.isHidden ?? false,
    gameCurrency: options.gameCurrency ?? "",
  });
  return await launchGame(db, suppliers, input, actor);
}
