import type { Db } from "../../db/client.ts";
import { findGameRowBySupplierName } from "../../db/repositories/games.ts";
import { isRestrictedMlbbUser } from "../../db/repositories/orders.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GamePackageDto } from "../../shared/game-types.ts";
import { MLBB_SUPPLIER_NAME } from "../games.ts";
import {
  choosePackageFor,
  type MlbbVerification,
  verifyMlbbAccount,
} from "../mlbb-verification.ts";
import type { PackageChoice } from "../package-choice.ts";

/**
 * The spec's verify answer plus the server's package decision (spec §4 rules, restricted list and
 * stock included), so the browser shows the items the order will be priced from.
 */
export async function verifyResellerMlbb(
  db: Db,
  suppliers: Suppliers,
  userid: string,
  serverid: string,
): Promise<MlbbVerification & { choice: PackageChoice }> {
  const [verification, isRestricted, game] = await Promise.all([
    verifyMlbbAccount(suppliers, userid, serverid),
    isRestrictedMlbbUser(db, userid, serverid),
    findGameRowBySupplierName(db, "elephant", MLBB_SUPPLIER_NAME),
  ]);
  const packages = (game?.packages ?? []) as GamePackageDto[];
  const out = (name: string) =>
    game?.is_out_of_stock || (packages.find((p) => p.name === name)?.isOutOfStock ?? true);
  const choice = choosePackageFor(verification, {
    isRestricted,
    outOfStock: {
      mlbb: out("mlbb"),
      mlbb_special: out("mlbb_special"),
      mlbb_global: out("mlbb_global"),
    },
  });
  return { ...verification, choice };
}
