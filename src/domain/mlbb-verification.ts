import type { Suppliers } from "../integrations/suppliers.ts";
import { UpstreamError } from "./errors.ts";
import { chooseMlbbPackage, type MlbbPackage, type PackageChoice } from "./package-choice.ts";

/** The spec's verify answer (§7 Consumer/Reseller verify_id/mlbb). */
export interface MlbbVerification {
  mlbb_global: "valid" | "invalid" | "error";
  mlbb_special: "valid" | "invalid" | "error";
  /** Nickname from the global check. */
  name1: string;
  /** Nickname from the special check. */
  name2: string;
  error1: string;
  error2: string;
  region: string;
}

/**
 * Asks EliteDias' checkid about the account for the global and the special package at once. A
 * package whose check fails carries its error text; when neither check could be made at all the
 * call fails with the spec's verify failure.
 */
export async function verifyMlbbAccount(
  suppliers: Suppliers,
  userid: string,
  serverid: string,
): Promise<MlbbVerification> {
  const [global, special] = await Promise.all([
    suppliers.elitedias.checkId("mlbb_global", userid, serverid),
    suppliers.elitedias.checkId("mlbb_special", userid, serverid),
  ]);
  if (!global.ok && !special.ok) {
    throw new UpstreamError(`Failed to verify ID: ${global.message}`);
  }
  const g = global.ok ? global.value : { valid: "error" as const, error: global.message };
  const s = special.ok ? special.value : { valid: "error" as const, error: special.message };
  return {
    mlbb_global: g.valid,
    mlbb_special: s.valid,
    name1: g.name ?? "",
    name2: s.name ?? "",
    error1: g.error ?? "",
    error2: s.error ?? "",
    region: ("region" in g ? g.region : undefined) ?? ("region" in s ? s.region : undefined) ?? "",
  };
}

/**
 * Spec §4 package choice from a verify answer: the error of the call as a whole is the one shared
 * by both checks when neither is valid (for example 'Game is under maintenance').
 */
export function choosePackageFor(
  v: MlbbVerification,
  options: { isRestricted: boolean; outOfStock: Readonly<Record<MlbbPackage, boolean>> },
): PackageChoice {
  const globalValid = v.mlbb_global === "valid";
  const specialValid = v.mlbb_special === "valid";
  const errorText = !globalValid && !specialValid ? (v.error1 || v.error2) : "";
  return chooseMlbbPackage({
    globalValid,
    specialValid,
    errorText,
    region: v.region,
    isRestricted: options.isRestricted,
    outOfStock: options.outOfStock,
  });
}
