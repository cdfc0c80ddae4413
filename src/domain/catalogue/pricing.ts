// Item prices (spec §9): price = cost + cost × markup / 100, the markup reduced by the item's
// discount when it applies, rounded up to the cent. Exact rational arithmetic on BigInt only.

import type { GameRow } from "../../db/schema.ts";
import {
  type DecimalInput,
  type ExactDecimal,
  MAX_CENTS,
  MoneyFormatError,
  parseDecimal,
} from "../money.ts";

/** The price-relevant fields of a game item (spec §3); a full game item fits this shape. */
export interface PricedItem {
  /** Supplier cost in dollars, at the supplier's precision ("0.07", 12.3456). */
  cost: DecimalInput;
  /** Whether the consumer discount applies. */
  isDiscountedConsumer?: boolean;
  /** Consumer discount in percent; 0 means not discounted. */
  discountRateConsumer?: DecimalInput;
  /** Whether the reseller discount applies. */
  isDiscountedReseller?: boolean;
  /** Reseller discount in percent; 0 means not discounted. */
  discountRateReseller?: DecimalInput;
}

/** The terms of one price: cost in dollars, markup and discount in percent. */
export interface PriceTerms {
  cost: DecimalInput;
  markupPercent: DecimalInput;
  discountPercent?: DecimalInput;
}

/** The consumer markup chosen by the caller (the game's consumerMarkup or the package's markupConsumer). */
export interface ConsumerPricing {
  markupPercent: DecimalInput;
}

/** The reseller's markup for the game and whether item discounts are switched off for them. */
export interface ResellerPricing {
  markupPercent: DecimalInput;
  disableDiscounts: boolean;
}

/**
 * Computes a price in integer cents: cost × (100 + max(markup − discount, 0)) / 100, rounded up.
 *
 * "The markup is reduced by the discount rate" (spec §9) is read as percentage points: markup and
 * discount are both percents of the same cost, so 10 % markup with a 4 % discount sells at cost +
 * 6 %. The effective markup stops at 0: a discount gives away margin, never sells below the
 * supplier's cost.
 */
export function computePrice(
  { cost, markupPercent, discountPercent = 0 }: PriceTerms,
): number {
  const exactCost = parseDecimal(cost, { label: "cost" });
  const markup = parseDecimal(markupPercent, { label: "markup %" });
  const discount = parseDecimal(discountPercent, { label: "discount %" });
  const scale = Math.max(markup.scale, discount.scale);
  const markupUnits = rescale(markup, scale);
  const discountUnits = rescale(discount, scale);
  if (discountUnits > 100n * 10n ** BigInt(scale)) {
    throw new MoneyFormatError(
      `discount % must be at most 100, got ${String(discountPercent)}`,
    );
  }
  const effectiveMarkup = markupUnits > discountUnits ? markupUnits - discountUnits : 0n;
  // cents = units / 10^costScale × (100 + effectiveMarkup / 10^scale) / 100 × 100
  const numerator = exactCost.units *
    (100n * 10n ** BigInt(scale) + effectiveMarkup);
  const denominator = 10n ** BigInt(exactCost.scale + scale);
  const cents = divideRoundingUp(numerator, denominator);
  if (cents > BigInt(MAX_CENTS)) {
    throw new MoneyFormatError(
      `price is too large: cost ${String(cost)} at ${String(markupPercent)} %`,
    );
  }
  return Number(cents);
}

/** Computes the consumer price of an item in cents, applying its consumer discount when flagged. */
export function computeConsumerPrice(
  item: PricedItem,
  pricing: ConsumerPricing,
): number {
  return computePrice({
    cost: item.cost,
    markupPercent: pricing.markupPercent,
    discountPercent: item.isDiscountedConsumer ? item.discountRateConsumer ?? 0 : 0,
  });
}

/**
 * The consumer markup of an item: its package's markupConsumer for games sold in packages
 * (Mobile Legends), otherwise the game's consumerMarkup. The storefront shows and the payment
 * charges prices from this one rule.
 */
export function consumerMarkupFor(
  game: { consumer_markup: DecimalInput },
  pkg?: { markupConsumer: DecimalInput },
): DecimalInput {
  return pkg ? pkg.markupConsumer : game.consumer_markup;
}

/** Computes the reseller price of an item in cents; disableDiscounts removes item discounts (spec §6). */
export function computeResellerPrice(
  item: PricedItem,
  pricing: ResellerPricing,
): number {
  const discounted = item.isDiscountedReseller === true &&
    !pricing.disableDiscounts;
  return computePrice({
    cost: item.cost,
    markupPercent: pricing.markupPercent,
    discountPercent: discounted ? item.discountRateReseller ?? 0 : 0,
  });
}

/** The reseller's markup for a game or package: their own map first, then the game's settings. */
export function resellerMarkupFor(
  reseller: { name: string; markup: Record<string, number> },
  key: string,
  game?: Pick<
    GameRow,
    "markup_for_individual_resellers" | "reseller_markup" | "reseller_markup_all"
  >,
): number {
  const own = reseller.markup[key];
  if (own !== undefined) return Number(own);
  if (!game) return 0;
  if (game.markup_for_individual_resellers) return Number(game.reseller_markup[reseller.name] ?? 0);
  return Number(game.reseller_markup_all);
}

/** Names a denomination for resellers: purely digit names get the game currency ("50" → "50 Diamonds"). */
export function formatResellerItemName(
  nameReseller: string,
  gameCurrency: string,
): string {
  const currency = gameCurrency.trim();
  // A blank currency means the supplier's name already carries it (spec §2 launch form).
  return /^\d+$/.test(nameReseller) && currency !== ""
    ? `${nameReseller} ${currency}`
    : nameReseller;
}

function rescale(value: ExactDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function divideRoundingUp(numerator: bigint, denominator: bigint): bigint {
  // Both are non-negative here (parseDecimal refuses negatives), so ceiling is floor + remainder check.
  const quotient = numerator / denominator;
  return numerator % denominator === 0n ? quotient : quotient + 1n;
}
