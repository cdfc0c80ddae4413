// Starting a consumer payment (spec §7 POST /payment/{provider}/mlbb). The server is the
// authority: it verifies the account and picks the package with the reseller path's own decision,
// prices the item from the catalogue with the consumer markup and discounts, and refuses a
// request whose amount or package differs from what it would charge. The order is committed
// before HitPay is called, and HitPay's answer is stored in a second short transaction.

import type { Db } from "../../db/client.ts";
import type { OrderRow } from "../../db/schema.ts";
import { findGameRowBySupplierName } from "../../db/repositories/games.ts";
import { findOrInsertConsumer } from "../../db/repositories/consumers.ts";
import {
  findOrderById,
  insertOrder,
  setPaymentReference,
  transitionOrder,
} from "../../db/repositories/orders.ts";
import { type HitPayClient, HitPayError } from "../../integrations/hitpay/client.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GameItemDto } from "../../shared/game-types.ts";
import { ConflictError, NotFoundError, UpstreamError } from "../errors.ts";
import { MLBB_SUPPLIER_NAME } from "../catalogue/games.ts";
import {
  decideMlbbPackage,
  MLBB_PACKAGES,
  type MlbbPackage,
  packageToOrder,
} from "../orders/verification.ts";
import { computeConsumerPrice, consumerMarkupFor } from "../catalogue/pricing.ts";
import { consumerItemName } from "../catalogue/consumer-catalogue.ts";
import { assertClientPrice, newOrderId } from "../orders/place.ts";
import {
  AWAITING_PAYMENT,
  CANCELLED,
  CONSUMER_CURRENCY,
  RETRYABLE_STATES,
} from "./consumer-states.ts";
import { centsToDollars } from "../money.ts";
import { HITPAY, MANUAL } from "./consumer-payments.ts";
import { enqueueBankTransferMail } from "./bank-transfer.ts";

/** The spec's failure text for a payment that could not be started (§8 Consumer payment). */
export const PAYMENT_START_FAILED = "Failed to initiate payment, please try again.";

/** Where the browser goes after paying (HitPay appends ?reference=…&status=…). */
export const PAYMENT_RESULT_PATH = "/payment/success";

/** What the consumer's browser sends; `clientAmount` and `package` are compared, never trusted. */
export interface ConsumerPaymentInput {
  provider: typeof HITPAY | typeof MANUAL;
  consumer: { name: string; email: string; phone: string };
  userid: string;
  serverid: string;
  denom: string;
  userName: string;
  package: MlbbPackage;
  clientAmount: number;
}

export interface ConsumerCheckoutContext {
  db: Db;
  suppliers: Suppliers;
  hitpay: HitPayClient;
  /** Absolute base URL of this site, for HitPay's redirect and webhook. */
  siteUrl: string;
  /** The HitPay codes the checkout page offers (config.hitpay.paymentMethods). */
  paymentMethods: readonly string[];
}

/** The spec's answer: the order number and where the browser goes next. */
export interface ConsumerPaymentStarted {
  orderID: string;
  paymentUrl: string;
}

function findConsumerItem(items: GameItemDto[], denom: string): GameItemDto {
  const item = items.find((i) => i.nameSupplier === denom && !i.isHiddenConsumer);
  if (!item) throw new NotFoundError("Item not found");
  return item;
}

/** Prices the order from the catalogue and stores the consumer and the order, in one transaction. */
async function placeConsumerOrder(
  ctx: ConsumerCheckoutContext,
  input: ConsumerPaymentInput,
): Promise<OrderRow> {
  const game = await findGameRowBySupplierName(ctx.db, "elephant", MLBB_SUPPLIER_NAME);
  if (!game || game.is_hidden) throw new NotFoundError("Game not found");
  // The game's own stock flag is part of the decision, as on the verify call the page made.
  const { choice } = await decideMlbbPackage(
    ctx.db,
    ctx.suppliers,
    game,
    input.userid,
    input.serverid,
  );
  const pkg = packageToOrder(game, choice, input.package);
  const item = findConsumerItem(pkg.gameItems, input.denom);
  const priceCents = computeConsumerPrice(item, {
    markupPercent: consumerMarkupFor(game, pkg),
  });
  assertClientPrice(input.clientAmount, priceCents);
  return await ctx.db.transaction().execute(async (trx) => {
    const consumerId = await findOrInsertConsumer(trx, input.consumer);
    const now = new Date();
    const order: OrderRow = {
      id: newOrderId("C"),
      buyer_type: "consumer",
      status: AWAITING_PAYMENT,
      reseller_id: null,
      reseller_name: null,
      old_balance_cents: null,
      new_balance_cents: null,
      consumer_id: consumerId,
      consumer_name: input.consumer.name,
      consumer_email: input.consumer.email,
      consumer_phone: input.consumer.phone,
      game_id: game.id,
      game: game.name,
      package: pkg.name,
      package_ed_name: pkg.supplierPackageName,
      item: consumerItemName(item, game.game_currency),
      denom: item.nameSupplier,
      user_id: input.userid,
      server_id: input.serverid,
      user_name: input.userName,
      amount_cents: priceCents,
      cost: String(item.cost),
      supplier: game.supplier,
      supplier_order_id: null,
      payment_provider: input.provider,
      payment_reference: null,
      last_error: null,
      review_since: null,
      review_reason: null,
      created_at: now,
      updated_at: now,
    };
    await insertOrder(trx, order);
    if (input.provider === MANUAL) await enqueueBankTransferMail(trx, order, ctx.siteUrl);
    return order;
  });
}

/**
 * Starts a consumer payment: the order is stored awaiting payment, then (HitPay) a payment
 * request is created outside any transaction and its id stored on the order. HitPay down, slow
 * or answering garbage: the order is cancelled with the reason kept, and the caller gets a 502
 * with the spec's text. Manual payments wait for an admin; the browser goes to the result page.
 */
export async function startConsumerPayment(
  ctx: ConsumerCheckoutContext,
  input: ConsumerPaymentInput,
): Promise<ConsumerPaymentStarted> {
  const order = await placeConsumerOrder(ctx, input);
  if (input.provider === MANUAL) return { orderID: order.id, paymentUrl: PAYMENT_RESULT_PATH };
  let paymentUrl: string;
  try {
    const request = await ctx.hitpay.createPaymentRequest({
      amountCents: order.amount_cents,
      currency: CONSUMER_CURRENCY,
      referenceNumber: order.id,
      name: input.consumer.name,
      email: input.consumer.email,
      phone: input.consumer.phone,
      purpose: `${order.game} ${order.item}`,
      redirectUrl: `${ctx.siteUrl}${PAYMENT_RESULT_PATH}`,
      webhookUrl: `${ctx.siteUrl}/api/payment/hitpay/webhook`,
      paymentMethods: ctx.paymentMethods,
    });
    await setPaymentReference(ctx.db, order.id, HITPAY, request.id);
    paymentUrl = request.url;
  } catch (error) {
    if (!(error instanceof HitPayError)) throw error;
    // The buyer never saw a checkout page, so nothing can be paid on this order.
    await transitionOrder(ctx.db, order.id, [AWAITING_PAYMENT], {
      status: CANCELLED,
      last_error: error.message,
    });
    throw new UpstreamError(PAYMENT_START_FAILED);
  }
  return { orderID: order.id, paymentUrl };
}

/** Refusal of a Try again on an order that was paid or is still awaiting payment. */
export const NOT_RETRYABLE = "This order can no longer be paid again. Please place a new order.";

/**
 * "Try again" on the result page: the same purchase (account, item, package, billing details,
 * payment method) as a new order, checked and priced by the server exactly as a new checkout is,
 * with the old order's price as the one the buyer saw: a changed price is refused with its reason.
 * Only an order whose payment ended unpaid (or was cancelled) may be tried again; it stays as it is,
 * so a late completion of its own payment request still pays it.
 */
export async function startConsumerPaymentAgain(
  ctx: ConsumerCheckoutContext,
  orderId: string,
): Promise<ConsumerPaymentStarted> {
  const order = await findOrderById(ctx.db, orderId);
  if (!order || order.buyer_type !== "consumer") throw new NotFoundError("Order not found");
  const pkg = MLBB_PACKAGES.find((p) => p === order.package);
  const provider = order.payment_provider;
  if (
    !RETRYABLE_STATES.includes(order.status) || !pkg || (provider !== HITPAY && provider !== MANUAL)
  ) {
    throw new ConflictError(NOT_RETRYABLE);
  }
  return await startConsumerPayment(ctx, {
    provider,
    consumer: {
      name: order.consumer_name ?? "",
      email: order.consumer_email ?? "",
      phone: order.consumer_phone ?? "",
    },
    userid: order.user_id,
    serverid: order.server_id,
    denom: order.denom,
    userName: order.user_name,
    package: pkg,
    clientAmount: centsToDollars(order.amount_cents),
  });
}
