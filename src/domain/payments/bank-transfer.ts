// Manual bank transfer (spec §9 payment method "manual"): where the buyer sends the money. An
// admin keeps the account in Settings; the result page and the buyer's email show it with the
// order number as the transfer's reference, and an admin confirms the payment once it arrives.

import { z } from "zod";
import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { getSetting, putSetting } from "../../db/repositories/settings.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { BankTransferDetails } from "../../shared/consumer-storefront.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { bankTransferMail } from "../mail/receipts.ts";
import { orderPageUrl, receiptOrderOf } from "./consumer-receipts.ts";

/** Settings key of the bank account a manual transfer goes to. */
export const BANK_TRANSFER_KEY = "bank_transfer";

const line = (label: string) => z.string().trim().max(200, `${label} is too long`);

/** The body of PUT /api/settings/bank-transfer; every field may be blank until the shop has one. */
export const BankTransferSchema = z.object({
  bankName: line("Bank name"),
  accountName: line("Account name"),
  accountNumber: line("Account number"),
});

const EMPTY: BankTransferDetails = { bankName: "", accountName: "", accountNumber: "" };

/** The bank account in Settings; blank fields when none was saved. */
export async function readBankTransferDetails(db: Db): Promise<BankTransferDetails> {
  const stored = BankTransferSchema.safeParse(await getSetting(db, BANK_TRANSFER_KEY));
  return stored.success ? stored.data : EMPTY;
}

/** Saves the bank account with an audit row in the same transaction. */
export async function saveBankTransferDetails(
  db: Db,
  input: BankTransferDetails,
  actor: OperatorActor,
): Promise<BankTransferDetails> {
  const details = BankTransferSchema.parse(input);
  await db.transaction().execute(async (trx) => {
    const before = await readBankTransferDetails(trx);
    await putSetting(trx, BANK_TRANSFER_KEY, details, actor.name);
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "settings.update",
      targetType: "settings",
      targetId: BANK_TRANSFER_KEY,
      before,
      after: details,
    });
  });
  return details;
}

/**
 * Queues the transfer instructions to the buyer of a manual order, in the transaction that stored
 * it: the account from Settings and the order number as the reference.
 */
export async function enqueueBankTransferMail(
  trx: Transaction<Database>,
  order: OrderRow,
): Promise<void> {
  if (!order.consumer_email) return;
  await enqueueMail(
    trx,
    bankTransferMail(receiptOrderOf(order), await readBankTransferDetails(trx), {
      orderPageUrl: orderPageUrl(order.id),
    }),
  );
}
