import { type Config, DEMO_PASSWORDS } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { findResellerByEmail } from "../../db/repositories/resellers.ts";
import { createReseller, hasNoAdmins } from "./users.ts";
import { createAdmin } from "../admin/admins.ts";
import { ValidationError } from "../errors.ts";

/** Demo sign-ins, printed at start and stated in the README; only ever created in demo mode. */
export const DEMO_ADMIN = {
  name: "Demo Admin",
  email: "admin@demo.test",
  password: DEMO_PASSWORDS.admin,
};
export const DEMO_RESELLER = {
  name: "Demo Reseller",
  email: "reseller@demo.test",
  password: DEMO_PASSWORDS.reseller,
  balanceCents: 100_000,
};

export class BootstrapError extends Error {
  override name = "BootstrapError";
}

export type BootstrapOutcome =
  | { kind: "existing" }
  | { kind: "created-from-env"; email: string }
  | { kind: "demo"; lines: string[] };

/**
 * Makes sure someone can sign in: an existing admin, or the ADMIN_EMAIL/ADMIN_PASSWORD superadmin,
 * or in demo mode a demo admin and reseller. Outside demo mode with none of these it refuses.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Config,
): Promise<BootstrapOutcome> {
  if (!(await hasNoAdmins(db))) return { kind: "existing" };
  if (config.bootstrapAdmin) {
    const { email, password, name } = config.bootstrapAdmin;
    await createAdmin(db, {
      name,
      email,
      password,
      rank: "superadmin",
      createdBy: "bootstrap",
    }).catch((error) => {
      if (error instanceof ValidationError) {
        throw new BootstrapError(`ADMIN_PASSWORD: ${error.message}`);
      }
      throw error;
    });
    return { kind: "created-from-env", email };
  }
  if (config.mode !== "demo") {
    throw new BootstrapError(
      "No admin exists. Set ADMIN_EMAIL and ADMIN_PASSWORD (and optionally ADMIN_NAME) for the " +
        "first start, or run: npm run cli -- admin create --name NAME --email EMAIL --rank superadmin",
    );
  }
  return { kind: "demo", lines: await seedDemoUsers(db) };
}

/** Creates the demo admin and demo reseller when missing; returns how to sign in. */
export async function seedDemoUsers(db: Db): Promise<string[]> {
  if (await hasNoAdmins(db)) {
    await createAdmin(db, {
      ...DEMO_ADMIN,
      rank: "superadmin",
      createdBy: "demo",
    }, { demoAccount: true });
  }
  if (!(await findResellerByEmail(db, DEMO_RESELLER.email))) {
    await createReseller(db, {
      ...DEMO_RESELLER,
      markup: { mlbb: 5, mlbb_global: 5, mlbb_special: 5 },
      twoFAEnabled: false,
      createdBy: "demo",
    }, { demoAccount: true });
  }
  return [
    `Admin sign-in:    /admin      ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password} (scan the QR code with an authenticator app)`,
    `Reseller sign-in: /resellers  ${DEMO_RESELLER.email} / ${DEMO_RESELLER.password} (no two-factor in the demo)`,
  ];
}
