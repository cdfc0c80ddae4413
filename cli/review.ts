import type { Command } from "commander";
import { cliActor } from "../src/domain/actor.ts";
import { listReviewQueue, resolveReview } from "../src/domain/orders/review-queue.ts";
import {
  listRetryableFailedJobs,
  retryFailedJobAsOperator,
} from "../src/domain/admin/failed-jobs.ts";
import type { ReviewAction } from "../src/shared/order-types.ts";
import { printData, resolveCliOrigin, withDb } from "./io.ts";

/**
 * `orders review`: the Needs review queue (Admin → Orders → Needs review) and an operator's
 * decision on one order, the same domain calls as the console, audited as the CLI's user.
 */
export function registerOrdersReview(orders: Command): void {
  const review = orders.command("review").description(
    "Orders waiting for an operator: a supplier create whose outcome is unknown, or a supplier " +
      "job out of attempts; nothing is sent again and no money moves until one is resolved",
  );
  review
    .command("list", { isDefault: true })
    .description("List the orders in Needs review with their supplier attempts")
    .option("--json", "print the queue as JSON")
    .action(async (opts: { json?: boolean }) => {
      const queue = await withDb((db) => listReviewQueue(db));
      if (opts.json) {
        console.log(JSON.stringify(queue, null, 2));
        return;
      }
      if (!queue.length) console.log("No orders need review.");
      for (const order of queue) {
        const buyer = order.reseller?.name ?? order.consumer?.email ?? "";
        console.log(
          `${order.id}  ${order.status}  ${buyer}  ${order.game} ${order.item}  ` +
            `since ${order.reviewSince}`,
        );
        console.log(`  ${order.reviewReason}`);
        for (const attempt of order.attempts) {
          console.log(`  attempt ${attempt.at}: ${attempt.outcome} ${attempt.answer}`);
        }
      }
    });
  review
    .command("resolve")
    .description(
      "Resolve one order: --delivered <supplier order id> (you found it delivered at the " +
        "supplier), --refund (a reseller is credited once; a consumer's HitPay payment is " +
        "refunded through HitPay, once), or --resend (you checked the supplier does not hold it)",
    )
    .requiredOption("--order <id>", "the order number")
    .option("--delivered <supplierOrderId>", "mark it delivered with the supplier's order id")
    .option("--refund", "refund it")
    .option("--resend", "send it to the supplier again")
    .option("--json", "print the result as JSON")
    .action(async (
      opts: {
        order: string;
        delivered?: string;
        refund?: boolean;
        resend?: boolean;
        json?: boolean;
      },
    ) => {
      const chosen: ReviewAction[] = [
        ...(opts.delivered !== undefined ? ["delivered" as const] : []),
        ...(opts.refund ? ["refund" as const] : []),
        ...(opts.resend ? ["resend" as const] : []),
      ];
      if (chosen.length !== 1) {
        throw new Error("Choose exactly one of --delivered <id>, --refund or --resend");
      }
      resolveCliOrigin();
      const order = await withDb((db) =>
        resolveReview(db, {
          orderId: opts.order.trim(),
          action: chosen[0],
          supplierOrderId: opts.delivered,
          actor: cliActor(),
        })
      );
      printData(
        { order: order.id, status: order.status, supplierOrderId: order.supplier_order_id },
        !!opts.json,
      );
    });
}

/**
 * `orders refund <id>`: Needs review's Refund on one order, as `orders review resolve --refund`
 * does it (audited as the CLI's user): a reseller is credited once, a consumer's HitPay payment is
 * refunded through HitPay, and a consumer order whose refund HitPay refused has HitPay asked again.
 */
export function registerOrdersRefund(orders: Command): void {
  orders
    .command("refund")
    .description(
      "Refund an order waiting in Needs review: a reseller's balance is credited once; a " +
        "consumer's HitPay payment is refunded through HitPay (asked again when HitPay refused)",
    )
    .argument("<id>", "the order number")
    .option("--json", "print the result as JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      resolveCliOrigin();
      const order = await withDb((db) =>
        resolveReview(db, { orderId: id.trim(), action: "refund", actor: cliActor() })
      );
      printData(
        { order: order.id, status: order.status, lastError: order.last_error },
        !!opts.json,
      );
    });
}

/** `jobs failed` and `jobs retry`: jobs (mail, webhooks) that used their last attempt. */
export function registerJobCommands(program: Command): void {
  const jobs = program.command("jobs").description(
    "Background jobs that used their last attempt (order jobs go to `orders review`)",
  );
  jobs
    .command("failed")
    .description("List failed jobs, latest first")
    .option("--json", "print them as JSON")
    .action(async (opts: { json?: boolean }) => {
      const failed = await withDb((db) => listRetryableFailedJobs(db));
      if (opts.json) {
        console.log(JSON.stringify(failed, null, 2));
        return;
      }
      if (!failed.length) console.log("No failed jobs.");
      for (const job of failed) {
        console.log(
          `${job.id}  ${job.kind}  ${job.subject}  ${job.attempts} attempts  ` +
            `failed ${job.failedAt}: ${job.lastError}`,
        );
      }
    });
  jobs
    .command("retry")
    .description("Give a failed job a fresh set of attempts, due now (audited)")
    .argument("<id>", "the job's id, from `jobs failed`")
    .action(async (id: string) => {
      const number = Number(id);
      if (!Number.isSafeInteger(number) || number <= 0) throw new Error(`Not a job id: ${id}`);
      await withDb((db) => retryFailedJobAsOperator(db, { id: number, actor: cliActor() }));
      console.log(`Job ${number} will run again.`);
    });
}
