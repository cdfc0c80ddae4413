// What the demo leaves in a database, found and removed for a shop going live (src/domain/admin/
// go-live.ts): mail to and from the demo's reserved .test domains, its generated sealing key, and
// the values sealed with that key.
import type { Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";

/** Where the demo sealing key is kept (src/domain/auth/app-secret.ts). */
export const DEMO_SEALING_KEY_SETTING = "demo_app_secret";

/** A LIKE pattern for each of `domains` in an address ("Name <x@topup.test>" included). */
function domainPatterns(domains: readonly string[]): string[] {
  return domains.map((domain) => `%@${domain}%`);
}

/** Messages (deleted ones too) to or from an address in `domains`. */
export async function countMailOfDomains(db: Db, domains: readonly string[]): Promise<number> {
  const patterns = domainPatterns(domains);
  const row = await db.selectFrom("emails")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where((eb) =>
      eb.or(patterns.flatMap((p) => [eb("from_address", "like", p), eb("to_address", "like", p)]))
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the messages countMailOfDomains counts; returns how many. */
export async function deleteMailOfDomains(
  trx: Transaction<Database>,
  domains: readonly string[],
): Promise<number> {
  const patterns = domainPatterns(domains);
  const result = await trx.deleteFrom("emails")
    .where((eb) =>
      eb.or(patterns.flatMap((p) => [eb("from_address", "like", p), eb("to_address", "like", p)]))
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The demo's sealing key, when one was generated here. */
export async function findDemoSealingKey(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom("settings").select("value")
    .where("key", "=", DEMO_SEALING_KEY_SETTING).executeTakeFirst();
  return row === undefined ? undefined : String(row.value);
}

export async function deleteDemoSealingKey(trx: Transaction<Database>): Promise<void> {
  await trx.deleteFrom("settings").where("key", "=", DEMO_SEALING_KEY_SETTING).execute();
}

/** A value sealed with the app's secret box, and where it is stored. */
export interface SealedValue {
  table: "admins" | "resellers" | "reseller_webhooks";
  /** The row's id (a reseller's id for its webhook). */
  id: string;
  sealed: string;
}

/** Every sealed value at rest: TOTP secrets and reseller webhook secrets. */
export async function listSealedValues(db: Db): Promise<SealedValue[]> {
  const admins = await db.selectFrom("admins").select(["id", "totp_secret_enc"])
    .where("totp_secret_enc", "is not", null).execute();
  const resellers = await db.selectFrom("resellers").select(["id", "totp_secret_enc"])
    .where("totp_secret_enc", "is not", null).execute();
  const webhooks = await db.selectFrom("reseller_webhooks")
    .select(["reseller_id", "secret_sealed"]).execute();
  return [
    ...admins.map((r) => ({ table: "admins" as const, id: r.id, sealed: r.totp_secret_enc! })),
    ...resellers.map((r) => ({
      table: "resellers" as const,
      id: r.id,
      sealed: r.totp_secret_enc!,
    })),
    ...webhooks.map((r) => ({
      table: "reseller_webhooks" as const,
      id: r.reseller_id,
      sealed: r.secret_sealed,
    })),
  ];
}

/** Stores a value sealed again under another key, where it was. */
export async function replaceSealedValue(
  trx: Transaction<Database>,
  value: SealedValue,
  sealed: string,
): Promise<void> {
  if (value.table === "reseller_webhooks") {
    await trx.updateTable("reseller_webhooks").set({ secret_sealed: sealed })
      .where("reseller_id", "=", value.id).execute();
  } else {
    await trx.updateTable(value.table).set({ totp_secret_enc: sealed })
      .where("id", "=", value.id).execute();
  }
}

/**
 * Ends every sign-in still waiting for its two-factor step: an enrolment session holds a secret
 * sealed with the key being retired.
 */
export async function deletePendingSessions(trx: Transaction<Database>): Promise<void> {
  await trx.deleteFrom("sessions").where("stage", "!=", "active").execute();
}
