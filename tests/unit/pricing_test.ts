import assert from "node:assert/strict";
import { sortItemsForDisplay } from "../../src/shared/item-sorting.ts";
import { MoneyFormatError } from "../../src/domain/money.ts";
import {
  computeConsumerPrice,
  computePrice,
  computeResellerPrice,
  formatResellerItemName,
  type PricedItem,
} from "../../src/domain/catalogue/pricing.ts";

Deno.test("[pricing] 1.00 at 10 % markup is exactly 1.10", () => {
  assert.equal(computePrice({ cost: "1.00", markupPercent: 10 }), 110);
  assert.equal(computePrice({ cost: 1, markupPercent: "10" }), 110);
});

Deno.test("[pricing] 0.07 at 8.8 % is 0.07616, rounded up to 0.08", () => {
  assert.equal(computePrice({ cost: "0.07", markupPercent: 8.8 }), 8);
});

Deno.test("[pricing] at 0 % markup the price is the cost rounded up to the cent", () => {
  assert.equal(computePrice({ cost: "1.001", markupPercent: 0 }), 101);
  assert.equal(computePrice({ cost: "12.3456", markupPercent: 0 }), 1235);
  assert.equal(computePrice({ cost: 0, markupPercent: 10 }), 0);
});

Deno.test("[pricing] a price exactly on a cent boundary is not rounded up further", () => {
  assert.equal(computePrice({ cost: "2.00", markupPercent: 25 }), 250);
  assert.equal(computePrice({ cost: "0.80", markupPercent: 12.5 }), 90);
  assert.equal(computePrice({ cost: "1.9", markupPercent: "12.25" }), 214);
});

Deno.test("[pricing] decimals that floats get wrong give exact results", () => {
  // In floats 1.1 * 100 is 110.00000000000001, which a ceiling would turn into 111.
  assert.equal(computePrice({ cost: 1.1, markupPercent: 0 }), 110);
  // 4.35 * 100 and 1.15 * 100 fall just below the cent in floats.
  assert.equal(computePrice({ cost: 4.35, markupPercent: 0 }), 435);
  assert.equal(computePrice({ cost: 1.15, markupPercent: 0 }), 115);
  assert.equal(computePrice({ cost: 0.3, markupPercent: 10 }), 33);
  assert.equal(computePrice({ cost: "0.1", markupPercent: 20 }), 12);
});

Deno.test("[pricing] large amounts are exact to the cent", () => {
  assert.equal(
    computePrice({ cost: "987654321.12", markupPercent: 12.5 }),
    111111111126,
  );
  // 987654321.13 × 1.125 = 1111111111.27125, rounded up.
  assert.equal(
    computePrice({ cost: "987654321.13", markupPercent: 12.5 }),
    111111111128,
  );
});

Deno.test("[pricing] a discount reduces the markup by percentage points", () => {
  assert.equal(
    computePrice({ cost: "1.00", markupPercent: 10, discountPercent: 4 }),
    106,
  );
  assert.equal(
    computePrice({ cost: "10", markupPercent: 12.25, discountPercent: "2.5" }),
    1098,
  );
});

Deno.test("[pricing] discount 0 leaves the full markup", () => {
  assert.equal(
    computePrice({ cost: "1.00", markupPercent: 10, discountPercent: 0 }),
    110,
  );
});

Deno.test("[pricing] discount 100, or any discount above the markup, sells at cost and never below", () => {
  assert.equal(
    computePrice({ cost: "1.00", markupPercent: 10, discountPercent: 100 }),
    100,
  );
  assert.equal(
    computePrice({ cost: "1.00", markupPercent: 10, discountPercent: 15 }),
    100,
  );
  assert.equal(
    computePrice({ cost: "0.07", markupPercent: 8.8, discountPercent: 100 }),
    7,
  );
});

Deno.test("[pricing] invalid inputs raise a clear error", () => {
  assert.throws(() => computePrice({ cost: "-1", markupPercent: 10 }), {
    name: "MoneyFormatError",
    message: 'cost must not be negative, got "-1"',
  });
  assert.throws(
    () => computePrice({ cost: NaN, markupPercent: 10 }),
    /cost must be a finite number/,
  );
  assert.throws(
    () => computePrice({ cost: "1", markupPercent: "ten" }),
    /markup % must be a plain decimal number/,
  );
  assert.throws(
    () => computePrice({ cost: "1", markupPercent: -5 }),
    /markup % must not be negative/,
  );
  assert.throws(
    () => computePrice({ cost: "1", markupPercent: 10, discountPercent: 150 }),
    /discount % must be at most 100/,
  );
  assert.throws(
    () => computePrice({ cost: "999999999999999", markupPercent: 10 }),
    MoneyFormatError,
  );
});

const discountedItem: PricedItem = {
  cost: "1.00",
  isDiscountedConsumer: true,
  discountRateConsumer: 3,
  isDiscountedReseller: true,
  discountRateReseller: 5,
};

Deno.test("[pricing] a discounted reseller item gets the discount while disableDiscounts is off", () => {
  const price = computeResellerPrice(discountedItem, {
    markupPercent: 10,
    disableDiscounts: false,
  });
  assert.equal(price, 105);
});

Deno.test("[pricing] disableDiscounts on removes the reseller discount", () => {
  const price = computeResellerPrice(discountedItem, {
    markupPercent: 10,
    disableDiscounts: true,
  });
  assert.equal(price, 110);
});

Deno.test("[pricing] a reseller rate without the discounted flag is ignored", () => {
  const item = { ...discountedItem, isDiscountedReseller: false };
  assert.equal(
    computeResellerPrice(item, { markupPercent: 10, disableDiscounts: false }),
    110,
  );
});

Deno.test("[pricing] consumers get the consumer discount only, and only when flagged", () => {
  assert.equal(
    computeConsumerPrice(discountedItem, { markupPercent: 10 }),
    107,
  );
  const undiscounted = { ...discountedItem, isDiscountedConsumer: false };
  assert.equal(computeConsumerPrice(undiscounted, { markupPercent: 10 }), 110);
  assert.equal(
    computeConsumerPrice({ cost: "1.00" }, { markupPercent: 8.8 }),
    109,
  );
});

Deno.test("[pricing] a flagged item with no rate is not discounted", () => {
  const item: PricedItem = { cost: "1.00", isDiscountedReseller: true };
  assert.equal(
    computeResellerPrice(item, { markupPercent: 10, disableDiscounts: false }),
    110,
  );
});

Deno.test("[pricing] purely digit denomination names get the game currency", () => {
  assert.equal(formatResellerItemName("50", "Diamonds"), "50 Diamonds");
  assert.equal(
    formatResellerItemName("86 Diamonds", "Diamonds"),
    "86 Diamonds",
  );
  assert.equal(
    formatResellerItemName("Weekly Pass", "Diamonds"),
    "Weekly Pass",
  );
  assert.equal(formatResellerItemName("50", ""), "50");
  assert.equal(formatResellerItemName("50", "  "), "50");
});

Deno.test("[pricing] Optimise Sorting puts unnumbered names first, then by number, then alphabetically", () => {
  const names = [
    "172 Diamonds",
    "Weekly Diamond Pass",
    "86 Diamonds",
    "1,050 Diamonds",
    "Twilight Pass",
    "86 Bonus",
    "twilight pass",
    "257 Diamonds (234+23)",
  ];
  const sorted = sortItemsForDisplay(
    names.map((nameReseller) => ({ nameReseller })),
  );
  assert.deepEqual(sorted.map((item) => item.nameReseller), [
    "Twilight Pass",
    "twilight pass",
    "Weekly Diamond Pass",
    "86 Bonus",
    "86 Diamonds",
    "172 Diamonds",
    "257 Diamonds (234+23)",
    "1,050 Diamonds",
  ]);
});

Deno.test("[pricing] Optimise Sorting returns a new array and keeps the input intact", () => {
  const items = [{ nameReseller: "2" }, { nameReseller: "1" }];
  const sorted = sortItemsForDisplay(items);
  assert.deepEqual(items.map((item) => item.nameReseller), ["2", "1"]);
  assert.deepEqual(sorted.map((item) => item.nameReseller), ["1", "2"]);
});
