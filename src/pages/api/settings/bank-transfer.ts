import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../server/http.ts";
import { adminActor } from "../../../domain/actor.ts";
import {
  BankTransferSchema,
  readBankTransferDetails,
  saveBankTransferDetails,
} from "../../../domain/payments/bank-transfer.ts";

/** The bank account manual transfers go to, as Settings shows it. */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await readBankTransferDetails(locals.app.db));
};

/** Admins set the bank account; the change is audited. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, BankTransferSchema);
  return Response.json(
    await saveBankTransferDetails(locals.app.db, input, adminActor(admin)),
  );
};
