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

export interface SupplierLaunchOptions {
  supplier: "elephant" | "monkey";
  /** EliteDias game code, or MooGold product id. */
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
  let fields: string[];
  let supplierName = options.game;
  let supplierNotes = "";
  const servers = () =>
    readSupplierServers(suppliers, options.supplier, options.game, options.game);
  let serverList: Record<string, string> | null;
  if (options.supplier === "elephant") {
    const [f, s] = await Promise.all([suppliers.elitedias.gameFields(options.game), servers()]);
    if (!f.ok) throw new UpstreamError(LAUNCH_FAILED);
    fields = f.value.fields;
    supplierNotes = f.value.notes;
    serverList = s;
  } else {
    const [d, s] = await Promise.all([
      suppliers.moogold.productDetail(Number(options.game)),
      servers(),
    ]);
    if (!d.ok) throw new UpstreamError(LAUNCH_FAILED);
    fields = d.value.fields;
    supplierName = d.value.name;
    serverList = s;
  }
  if (!serverList) throw new UpstreamError(LAUNCH_FAILED);
  const input = LaunchGameSchema.parse({
    name: options.name,
    tagline: options.tagline ?? "",
    supplier: options.supplier,
    supplierName,
    supplierNotes,
    supplierGameID: options.supplier === "monkey" ? options.game : "",
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
