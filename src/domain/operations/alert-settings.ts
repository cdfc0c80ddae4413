// The thresholds of the operations alerts, set by admins in Settings: the lowest
// prepaid balance at each supplier, the job backlog limit, and how many webhook deliveries in a
// row must fail before a reseller's webhooks count as failing.

import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { getSetting, putSetting } from "../../db/repositories/settings.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ValidationError } from "../errors.ts";
import { REGISTERED, type Registered } from "../../integrations/supplier-registry.ts";
import type { AnySupplierRegistration } from "../../integrations/supplier-registration.ts";

export const ALERT_SETTINGS_KEY = "operationsAlerts";

/** An amount in the supplier's currency, sent as a number with at most 2 decimals. */
const Amount = z.number().min(0).max(1_000_000_000)
  .refine((n) => /^\d+(\.\d{1,2})?$/.test(String(n)), { error: "at most 2 decimals" });

/** The thresholds that are not a supplier's. */
const APP_THRESHOLDS = {
  /** Jobs due and not yet run, over all kinds, above which the admins are told. */
  jobBacklogLimit: z.number().int().min(1).max(1_000_000),
  /** Webhook deliveries in a row that fail before a reseller's webhooks count as failing. */
  webhookFailureLimit: z.number().int().min(1).max(100),
};

const APP_DEFAULTS = { jobBacklogLimit: 100, webhookFailureLimit: 5 };

/** The setting that holds a supplier's lowest balance: `moogoldMinBalance` for vendor moogold. */
export type MinBalanceKey<V extends string> = `${V}MinBalance`;

/** Each registered supplier's balance (in its own currency) below which the admins are told. */
type MinBalances<R extends readonly AnySupplierRegistration[]> = {
  [G in R[number] as MinBalanceKey<G["vendor"]>]: number;
};

/** The thresholds with the suppliers of `R`. */
export type AlertSettingsOf<R extends readonly AnySupplierRegistration[]> = MinBalances<R> & {
  jobBacklogLimit: number;
  webhookFailureLimit: number;
};

export type AlertSettings = AlertSettingsOf<Registered>;

/** The key of `vendor`'s low-balance threshold. */
function minBalanceKey<V extends string>(vendor: V): MinBalanceKey<V> {
  return `${vendor}MinBalance`;
}

/** The thresholds with the suppliers of `registrations`: each one's balance, then the app's. */
export function alertSettingsSchemaOf<R extends readonly AnySupplierRegistration[]>(
  registrations: R,
): z.ZodType<AlertSettingsOf<R>> {
  // The keys are the registrations' (MinBalances), which zod cannot see in a built shape.
  return z.object({
    ...Object.fromEntries(registrations.map((r) => [minBalanceKey(r.vendor), Amount])),
    ...APP_THRESHOLDS,
  }) as unknown as z.ZodType<AlertSettingsOf<R>>;
}

/** The thresholds' defaults with the suppliers of `registrations`. */
export function defaultAlertSettingsOf(
  registrations: readonly AnySupplierRegistration[],
): Record<string, number> {
  return {
    ...Object.fromEntries(
      registrations.map((r) => [minBalanceKey(r.vendor), r.minBalanceDefault]),
    ),
    ...APP_DEFAULTS,
  };
}

/** A supplier's threshold as Settings shows it: its key, and its label with its currency. */
export interface MinBalanceField {
  key: string;
  label: string;
}

/** The suppliers' thresholds as Settings shows them, in registration order. */
export function minBalanceFieldsOf(
  registrations: readonly AnySupplierRegistration[] = REGISTERED,
): MinBalanceField[] {
  return registrations.map((r) => ({
    key: minBalanceKey(r.vendor),
    label: `${r.name} balance below (${r.balanceCurrency})`,
  }));
}

export const AlertSettingsSchema = alertSettingsSchemaOf(REGISTERED);

export const DEFAULT_ALERT_SETTINGS = defaultAlertSettingsOf(REGISTERED) as AlertSettings;

/**
 * The setting that holds a supplier's lowest balance, `<vendor>MinBalance`: a supplier without
 * one is a programming error (every registered supplier has one).
 */
export function minBalanceSettingOf(vendor: string): keyof AlertSettings {
  const key = minBalanceKey(vendor);
  if (!(key in DEFAULT_ALERT_SETTINGS)) throw new Error(`no alert setting ${key}`);
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
