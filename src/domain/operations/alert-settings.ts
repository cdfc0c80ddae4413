// The thresholds of the operations alerts, set by admins in Settings: the lowest
// prepaid balance at each supplier, the job backlog limit, and how many webhook deliveries in a
// row must fail before a reseller's webhooks count as failing.

import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { getSetting, putSetting } from "../../db/repositories/settings.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ValidationError } from "../errors.ts";

export const ALERT_SETTINGS_KEY = "operationsAlerts";

/** An amount in the supplier's currency, sent as a number with at most 2 decimals. */
const Amount = z.number().min(0).max(1_000_000_000)
  .refine((n) => /^\d+(\.\d{1,2})?$/.test(String(n)), { error: "at most 2 decimals" });

export const AlertSettingsSchema = z.object({
  /** MooGold's balance (USD) below which the admins are told. */
  moogoldMinBalance: Amount,
  /** EliteDias' balance (its own currency, SGD) below which the admins are told. */
  elitediasMinBalance: Amount,
  /** Jobs due and not yet run, over all kinds, above which the admins are told. */
  jobBacklogLimit: z.number().int().min(1).max(1_000_000),
  /** Webhook deliveries in a row that fail before a reseller's webhooks count as failing. */
  webhookFailureLimit: z.number().int().min(1).max(100),
});

export type AlertSettings = z.infer<typeof AlertSettingsSchema>;

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  moogoldMinBalance: 100,
  elitediasMinBalance: 100,
  jobBacklogLimit: 100,
  webhookFailureLimit: 5,
};

/**
 * The setting that holds a supplier's lowest balance, `<vendor>MinBalance`: a supplier without
 * one is a programming error (its threshold must be added above, with its default).
 */
export function minBalanceSettingOf(vendor: string): keyof AlertSettings {
  const key = `${vendor}MinBalance`;
  if (!(key in AlertSettingsSchema.shape)) throw new Error(`no alert setting ${key}`);
  return key as keyof AlertSettings;
}

/** The stored thresholds, each unset one at its default. */
export async function readAlertSettings(db: Db): Promise<AlertSettings> {
  const stored = await getSetting<Partial<AlertSettings>>(db, ALERT_SETTINGS_KEY);
  return AlertSettingsSchema.parse({ ...DEFAULT_ALERT_SETTINGS, ...stored });
}

/** Saves the thresholds with an audit row. */
export async function saveAlertSettings(
  db: Db,
  input: unknown,
  actor: OperatorActor,
): Promise<AlertSettings> {
  const parsed = AlertSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(`${issue.path.join(".")}: ${issue.message}`);
  }
  await db.transaction().execute(async (trx) => {
    const before = await readAlertSettings(trx);
    await putSetting(trx, ALERT_SETTINGS_KEY, parsed.data, actor.name);
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "settings.update",
      targetType: "settings",
      targetId: ALERT_SETTINGS_KEY,
      before,
      after: parsed.data,
    });
  });
  return parsed.data;
}
