import { type Config, dbOptionsOf, getConfig } from "../config.ts";
import { type Db, getDb } from "../db/client.ts";
import { getSecretBox } from "../domain/auth/app-secret.ts";
import type { AuthContext } from "../domain/auth/auth.ts";
import { getSuppliers, type Suppliers } from "../integrations/suppliers.ts";
import { getHitPayClient, type HitPayClient } from "../integrations/hitpay/client.ts";

/** What every request handler needs: configuration, the database and the auth context. */
export interface AppContext {
  config: Config;
  db: Db;
  auth: AuthContext;
  /** The supplier clients (created on first use: the simulators need the server listening). */
  suppliers(): Suppliers;
  /** The HitPay client (live or the mounted simulator); its webhook salt is config.hitpay.salt. */
  hitpay(): HitPayClient;
}

/** Builds the per-process context (one database handle, one secret box). */
export async function getAppContext(): Promise<AppContext> {
  const config = getConfig();
  const db = getDb(dbOptionsOf(config));
  const box = await getSecretBox(db, config.appSecret);
  return {
    config,
    db,
    auth: {
      db,
      box,
      sessionIdleMinutes: config.sessionIdleMinutes,
      sessionAbsoluteHours: config.sessionAbsoluteHours,
      refusePublishedPasswords: config.mode === "production",
    },
    suppliers: () => getSuppliers(config),
    hitpay: () => getHitPayClient(config),
  };
}
