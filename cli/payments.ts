import type { Command } from "commander";
import {
  reconcileHitPayPayments,
  settleManualPayment,
} from "../src/domain/payments/consumer-payments.ts";
import { cliActor } from "../src/domain/actor.ts";
import { getConfig } from "../src/config.ts";
import { cliHitPay, printData, report, resolveCliOrigin, withDb } from "./io.ts";

/** `payments reconcile`: asks HitPay about consumer orders still awaiting payment (cron-safe). */
export function registerPaymentCommands(program: Command): void {
  const payments = program.command("payments").description("Consumer payments (HitPay, manual)");
  payments
    .command("reconcile")
    .description(
      "Ask HitPay about every consumer order still awaiting payment and apply completed " +
        "payments exactly as their webhook would (a later webhook is a replay); an order still " +
        "unpaid past HITPAY_PAYMENT_EXPIRY_MINUTES (plus 5) expires, and a payment after that " +
        "is refunded; safe from cron",
    )
    .option("--json", "print the result as JSON")
    .action(async (opts: { json?: boolean }) => {
      const hitpay = cliHitPay();
      resolveCliOrigin();
      const expiryMinutes = getConfig().hitpay.expiryMinutes;
      const result = await withDb((db) => reconcileHitPayPayments(db, hitpay, { expiryMinutes }));
      const summary = `${result.checked} order(s) awaiting payment checked, ${result.paid} paid, ` +
        `${result.expired} expired, ${result.failed} could not be checked`;
      if (opts.json) console.log(JSON.stringify(result));
      else if (result.failed) console.log(summary);
      else report(summary);
      if (result.failed) Deno.exitCode = 1;
    });
}

/** `orders confirm-payment --order ID [--cancel]`: an admin settles a manual payment, audited. */
export function registerOrdersConfirmPayment(orders: Command): void {
  orders
    .command("confirm-payment")
    .description(
      "Confirm that the manual payment of a consumer order arrived (the order goes to the " +
        "supplier), or cancel the order with --cancel; recorded in the audit log",
    )
    .requiredOption("--order <id>", "the order number")
    .option("--cancel", "cancel the order instead: the payment never came")
    .option("--json", "print the result as JSON")
    .action(async (opts: { order: string; cancel?: boolean; json?: boolean }) => {
      resolveCliOrigin();
      const order = await withDb((db) =>
        settleManualPayment(db, {
          orderId: opts.order.trim(),
          cancel: !!opts.cancel,
          actor: cliActor(),
        })
      );
      printData({ order: order.id, status: order.status }, !!opts.json);
    });
}
