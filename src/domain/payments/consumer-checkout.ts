// Starting a consumer payment (spec §7 POST /payment/{provider}/mlbb, and /payment/{provider}/{slug}
// for every other game). The server is the authority: it verifies the account with the
// supplier (Mobile Legends: the reseller path's own package decision; any other game: its
// supplier's check), prices the item from the catalogue with the consumer markup and discounts,
// and refuses a request whose amount or package differs from what it would charge, or whose
// account the supplier does not know. The order is committed before HitPay is called, and
// HitPay's answer is stored in a second short transaction.

import { publicOrigin } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { GameRow, OrderRow } from "../../db/schema.ts";
import { findOrInsertConsumer } from "../../db/repositories/consumers.ts";
import { findOrderById, insertOrder, setPaymentReference } from "../../db/repositories/orders.ts";
import {
  HITPAY_MINIMUM_AMOUNT_CENTS,
  type HitPayClient,
  HitPayError,
} from "../../integrations/hitpay/client.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GameItemDto, GamePackageDto } from "../../shared/game-types.ts";
import { type ConsumerVerifyAnswer, hasBankAccount } from "../../shared/consumer-storefront.ts";
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from "../errors.ts";
import { findGameRowById } from "../../db/repositories/games.ts";
import {
  assertAccountFields,
  checkGameAccount,
  decideMlbbPackage,
  formatOutOfStockTitle,
  type GameAccount,
  INVALID_USER_TITLE,
  MLBB_PACKAGES,
  type MlbbPackage,
  mlbbUserName,
  type PackageChoice,
  packageToOrder,
  verifyMlbbForOrder,
} from "../orders/verification.ts";
import { computeConsumerPrice, consumerMarkupFor } from "../catalogue/pricing.ts";
import {
  consumerItemName,
  findConsumerGameRow,
  isMobileLegends,
} from "../catalogue/consumer-catalogue.ts";
import { assertClientPrice, newOrderId, supplierKeysOf } from "../orders/place.ts";
import { MOBILE_LEGENDS_GAME } from "../../integrations/elitedias/port.ts";
import { AWAITING_PAYMENT, CONSUMER_CURRENCY, RETRYABLE_STATES } from "./consumer-states.ts";
import { move } from "../orders/lifecycle.ts";
import { centsToDollars, centsToDollarString } from "../money.ts";
import { consumerPageSlug, MLBB_SUPPLIER_NAME } from "../../shared/consumer-storefront.ts";
import { HITPAY, MANUAL } from "./consumer-payments.ts";
import { assertWithinRateLimit, CONSUMER_CHECKS_PER_SUPPLIER } from "../auth/rate-limit.ts";
import { enqueueBankTransferMail, readBankTransferDetails } from "./bank-transfer.ts";

/** The spec's failure text for a payment that could not be started (§8 Consumer payment). */
export const PAYMENT_START_FAILED = "Failed to initiate payment, please try again.";

/** Refusal of an online payment below HitPay's minimum, before any order or request exists. */
export const HITPAY_MINIMUM_REFUSAL = `Online payment starts at ${
  centsToDollarString(HITPAY_MINIMUM_AMOUNT_CENTS)
}. Please choose a larger item or pay by bank transfer.`;

/** Refusal of a bank transfer while Settings holds no account to pay into. */
export const NO_BANK_TRANSFER = "Bank transfer is not available right now. Please choose another " +
  "payment method.";

/** Where the browser goes after paying (HitPay appends ?reference=…&status=…). */
export const PAYMENT_RESULT_PATH = "/payment/success";

/** What the consumer's browser sends; `clientAmount` and `package` are compared, never trusted. */
export interface ConsumerPaymentInput {
  provider: typeof HITPAY | typeof MANUAL;
  /** The game: "mlbb" (the spec's path) or its page slug. */
  game: string;
  consumer: { name: string; email: string; phone: string };
  account: GameAccount;
  denom: string;
  /** The Mobile Legends package the page showed; the server decides it again. */
  package?: MlbbPackage;
  clientAmount: number;
}

export interface ConsumerCheckoutContext {
  db: Db;
  suppliers: Suppliers;
  hitpay: HitPayClient;
  /** The HitPay codes the checkout page offers (config.hitpay.paymentMethods). */
  paymentMethods: readonly string[];
  /** Minutes a HitPay payment request takes payment for (config.hitpay.expiryMinutes). */
  paymentExpiryMinutes: number;
}

/** The spec's answer: the order number and where the browser goes next. */
export interface ConsumerPaymentStarted {
  orderID: string;
  paymentUrl: string;
}

/** An account's verdict: the decision the page shows, and Mobile Legends' package choice. */
interface ConsumerVerdict extends Omit<ConsumerVerifyAnswer, "bankTransfer"> {
  mlbbChoice?: PackageChoice;
}

/**
 * Verifies the account a consumer typed for `game` with its supplier: Mobile Legends through the
 * spec §4 package decision (decideMlbbPackage), any other game through its supplier's own check
 * (checkGameAccount). Verify and payment both call this, so they cannot disagree; every check counts
 * against the supplier's cap across all clients (CONSUMER_CHECKS_PER_SUPPLIER).
 */
async function consumerVerdict(
  db: Db,
  suppliers: Suppliers,
  game: GameRow,
  account: GameAccount,
): Promise<ConsumerVerdict> {
  assertAccountFields(game, account);
  await assertWithinRateLimit(db, CONSUMER_CHECKS_PER_SUPPLIER, game.supplier);
  if (isMobileLegends(game)) {
    const { verification, choice } = await decideMlbbPackage(
      db,
      suppliers,
      game,
      account.userid,
      account.serverid,
    );
    const userName = choice.kind === "ok" ? mlbbUserName(verification, choice.package) : "";
    return { choice, userName, mlbbChoice: choice };
  }
  const check = await checkGameAccount(suppliers, game, account);
  return check.kind === "ok"
    ? { choice: { kind: "ok" }, userName: check.userName }
    : { choice: check, userName: "" };
}

async function findGameForConsumers(db: Db, key: string): Promise<GameRow> {
  const game = await findConsumerGameRow(db, key);
  if (!game) throw new NotFoundError("Game not found");
  return game;
}

/**
 * POST /api/consumers/verify_id/{game}: the account's name and the server's decision (items of
 * which package, the out-of-stock banner, or 'Invalid user'), for any game consumers can buy.
 */
export async function verifyConsumerAccount(
  db: Db,
  suppliers: Suppliers,
  key: string,
  account: GameAccount,
): Promise<ConsumerVerifyAnswer> {
  const { choice, userName } = await consumerVerdict(
    db,
    suppliers,
    await findGameForConsumers(db, key),
    account,
  );
  return { choice, userName, bankTransfer: hasBankAccount(await readBankTransferDetails(db)) };
}

/**
 * POST /api/consumers/verify_id/mlbb: the spec's Mobile Legends verify answer with the server's
 * package decision (as resellers get it), counted against the supplier's cap of anonymous checks,
 * and whether the shop takes a bank transfer now.
 */
export async function verifyConsumerMlbbAccount(
  db: Db,
  suppliers: Suppliers,
  account: { userid: string; serverid: string },
) {
  await assertWithinRateLimit(db, CONSUMER_CHECKS_PER_SUPPLIER, MOBILE_LEGENDS_GAME.supplier);
  const answer = await verifyMlbbForOrder(db, suppliers, account.userid, account.serverid);
  return { ...answer, bankTransfer: hasBankAccount(await readBankTransferDetails(db)) };
}

/**
 * What the order is for: the package (Mobile Legends) and the items it is priced from, after the
 * account passed its supplier's check. An account the supplier does not know never gets here.
 */
async function decidePurchase(
  ctx: ConsumerCheckoutContext,
  game: GameRow,
  input: ConsumerPaymentInput,
): Promise<{ pkg?: GamePackageDto; items: GameItemDto[]; userName: string }> {
  const verdict = await consumerVerdict(ctx.db, ctx.suppliers, game, input.account);
  if (verdict.mlbbChoice) {
    const pkg = packageToOrder(game, verdict.mlbbChoice, input.package);
    return { pkg, items: pkg.gameItems, userName: verdict.userName };
  }
  const { choice } = verdict;
  if (choice.kind === "invalid") throw new ValidationError(INVALID_USER_TITLE);
  if (choice.kind === "out_of_stock") throw new ConflictError(formatOutOfStockTitle(game.name));
  return { items: game.game_items as GameItemDto[], userName: verdict.userName };
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
  const game = await findGameForConsumers(ctx.db, input.game);
  const { pkg, items, userName } = await decidePurchase(ctx, game, input);
  const item = findConsumerItem(items, input.denom);
  const priceCents = computeConsumerPrice(item, {
    markupPercent: consumerMarkupFor(game, pkg),
  });
  assertClientPrice(input.clientAmount, priceCents);
  if (input.provider === HITPAY && priceCents < HITPAY_MINIMUM_AMOUNT_CENTS) {
    throw new ValidationError(HITPAY_MINIMUM_REFUSAL);
  }
  if (input.provider === MANUAL && !hasBankAccount(await readBankTransferDetails(ctx.db))) {
    throw new ValidationError(NO_BANK_TRANSFER);
  }
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
      package: pkg?.name ?? null,
      ...supplierKeysOf(game, item, pkg),
      item: consumerItemName(item, game.game_currency),
      user_id: input.account.userid,
      server_id: input.account.serverid,
      user_name: userName,
      amount_cents: priceCents,
      cost: String(item.cost),
      supplier: game.supplier,
      supplier_order_id: null,
      payment_provider: input.provider,
      payment_reference: null,
      payment_id: null,
      last_error: null,
      review_since: null,
      review_reason: null,
      route_item_key: null,
      supplier_game_id: null,
      created_at: now,
      updated_at: now,
    };
    await insertOrder(trx, order);
    if (input.provider === MANUAL) await enqueueBankTransferMail(trx, order);
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
      redirectUrl: `${publicOrigin()}${PAYMENT_RESULT_PATH}`,
      webhookUrl: `${publicOrigin()}/api/payment/hitpay/webhook`,
      paymentMethods: ctx.paymentMethods,
      expiresAfterMinutes: ctx.paymentExpiryMinutes,
    });
    await setPaymentReference(ctx.db, order.id, HITPAY, request.id);
    paymentUrl = request.url;
  } catch (error) {
    if (!(error instanceof HitPayError)) throw error;
    // The buyer never saw a checkout page, so nothing can be paid on this order.
    await move(ctx.db, order.id, "consumer", "cancelled", { lastError: error.message });
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
  const game = order.game_id ? await findGameRowById(ctx.db, order.game_id) : undefined;
  const pkg = MLBB_PACKAGES.find((p) => p === order.package);
  const provider = order.payment_provider;
  if (
    !RETRYABLE_STATES.includes(order.status) || !game ||
    (provider !== HITPAY && provider !== MANUAL) ||
    (isMobileLegends(game) && !pkg) ||
    // The character name a MooGold check needs is not kept on the order: such a game starts over.
    game.requires_character_name
  ) {
    throw new ConflictError(NOT_RETRYABLE);
  }
  // The order keeps its supplier's key for the item (a MooGold variation id), the page sends
  // the item's name: find the item the order was for by its key.
  const items = pkg
    ? (game.packages as GamePackageDto[]).find((p) => p.name === pkg)?.gameItems
    : game.game_items as GameItemDto[];
  const item = items?.find((i) =>
    supplierKeysOf(game, i).denom === order.denom && !i.isHiddenConsumer
  );
  if (!item) throw new ConflictError(NOT_RETRYABLE);
  return await startConsumerPayment(ctx, {
    provider,
    game: isMobileLegends(game) ? MLBB_SUPPLIER_NAME : consumerPageSlug({
      id: game.id,
      name: game.name,
      supplierName: game.supplier_name,
    }),
    consumer: {
      name: order.consumer_name ?? "",
      email: order.consumer_email ?? "",
      phone: order.consumer_phone ?? "",
    },
    account: { userid: order.user_id, serverid: order.server_id ?? "", characterName: "" },
    denom: item.nameSupplier,
    package: pkg,
    clientAmount: centsToDollars(order.amount_cents),
  });
}
