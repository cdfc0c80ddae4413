import type { Suppliers } from "../integrations/suppliers.ts";
import { UpstreamError } from "./errors.ts";

/** Spec §7 elephant verify answer: valid 'valid' is OK. */
export interface ElitediasVerification {
  valid: "valid" | "invalid" | "error";
  name: string;
  error: string;
}

/** POST /api/resellers/verify_id: EliteDias checkid for a launched game's code. */
export async function verifyElitediasAccount(
  suppliers: Suppliers,
  game: string,
  userid: string,
  serverid: string,
): Promise<ElitediasVerification> {
  const r = await suppliers.elitedias.checkId(game, userid, serverid || undefined);
  if (!r.ok) throw new UpstreamError(`Failed to verify ID: ${r.message}`);
  return { valid: r.value.valid, name: r.value.name ?? "", error: r.value.error ?? "" };
}

/** Spec §7 monkey validate answer: status 'true' is OK. */
export interface MoogoldValidation {
  status: "true" | "false";
  username: string;
  message: string;
}

/** POST /api/product_validate: MooGold validate, keyed by the product's own field labels. */
export async function validateMoogoldAccount(
  suppliers: Suppliers,
  productId: number,
  userid: string,
  serverid: string,
): Promise<MoogoldValidation> {
  const detail = await suppliers.moogold.productDetail(productId);
  if (!detail.ok) throw new UpstreamError(`Failed to verify ID: ${detail.message}`);
  const fields: Record<string, string> = {};
  detail.value.fields.forEach((label, i) => {
    if (i === 0) fields[label] = userid;
    else if (/server|zone/i.test(label)) fields[label] = serverid;
  });
  const r = await suppliers.moogold.validate(productId, fields);
  if (!r.ok) {
    if (r.kind === "supplier") return { status: "false", username: "", message: r.message };
    throw new UpstreamError(`Failed to verify ID: ${r.message}`);
  }
  return {
    status: r.value.valid ? "true" : "false",
    username: r.value.username ?? "",
    message: r.value.message,
  };
}
