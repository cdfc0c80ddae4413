import type { Db } from "../../src/db/client.ts";
import { createReseller, type NewResellerInput } from "../../src/domain/auth/users.ts";

/**
 * A reseller for a test, through the same `createReseller` as the console: no markup and no
 * two-factor unless given, created by "test".
 */
export async function createTestReseller(
  db: Db,
  input:
    & Omit<NewResellerInput, "markup" | "twoFAEnabled" | "createdBy">
    & Partial<NewResellerInput>,
) {
  return await createReseller(db, {
    markup: {},
    twoFAEnabled: false,
    createdBy: "test",
    ...input,
  });
}
