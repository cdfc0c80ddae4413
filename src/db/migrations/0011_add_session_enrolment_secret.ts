import type { Kysely } from "kysely";

// Two-factor enrolment bound to its secret. Frozen once landed.
// - sessions.totp_secret_enc: the sealed TOTP secret an enrolment session was issued. It belongs to
//   that session alone until a code from it is confirmed, when it becomes the account's and every
//   other pending session of the account ends; no other session ever shows or accepts it.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("totp_secret_enc", "text").execute();
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("totp_secret_enc").execute();
}
