// The transfer instructions of a manual order awaiting payment: the account from Settings, the
// amount and the order number as the reference (the same rows the buyer's email carries).
import {
  BANK_TRANSFER_TEXTS,
  type BankTransferDetails,
  bankTransferRows,
  hasBankAccount,
} from "../../shared/consumer-storefront.ts";

export interface BankTransferProps {
  /** The account to pay into (blank fields when the shop has not set one). */
  details: BankTransferDetails;
  orderId: string;
  /** The amount as shown, e.g. "$3.30". */
  amount: string;
}

/** The rows a buyer copies into the bank's app: never broken over lines. */
const WHOLE = ["Account Number", "Reference"];

export function BankTransfer({ details, orderId, amount }: BankTransferProps) {
  return (
    <section class="panel ct-transfer" aria-labelledby="transfer-title">
      <h2 id="transfer-title">{BANK_TRANSFER_TEXTS.heading}</h2>
      <p>{hasBankAccount(details) ? BANK_TRANSFER_TEXTS.lead : BANK_TRANSFER_TEXTS.noAccount}</p>
      <dl class="ct-order-block">
        {bankTransferRows(details, orderId, amount).map(([term, value]) => (
          <div key={term} class={WHOLE.includes(term) ? "ct-id-row" : undefined}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
