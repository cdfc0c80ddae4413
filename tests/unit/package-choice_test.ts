import assert from "node:assert/strict";
import {
  chooseMlbbPackage,
  formatOutOfStockTitle,
  INVALID_USER_DETAIL,
  INVALID_USER_TITLE,
  OUT_OF_STOCK_DETAIL,
  type PackageChoiceInput,
} from "../../src/domain/orders/verification.ts";

const inStock = { mlbb: false, mlbb_special: false, mlbb_global: false };

function verified(overrides: Partial<PackageChoiceInput>): PackageChoiceInput {
  return {
    globalValid: true,
    specialValid: true,
    region: "Malaysia",
    isRestricted: false,
    outOfStock: inStock,
    ...overrides,
  };
}

Deno.test("[package] both valid in the Philippines gives mlbb_special", () => {
  assert.deepEqual(chooseMlbbPackage(verified({ region: "Philippines" })), {
    kind: "ok",
    package: "mlbb_special",
  });
  assert.deepEqual(chooseMlbbPackage(verified({ region: " PHILIPPINES " })), {
    kind: "ok",
    package: "mlbb_special",
  });
});

Deno.test("[package] both valid for a restricted user gives mlbb_special", () => {
  assert.deepEqual(chooseMlbbPackage(verified({ isRestricted: true })), {
    kind: "ok",
    package: "mlbb_special",
  });
});

Deno.test("[package] both valid, neither Philippines nor restricted, gives the standard mlbb", () => {
  assert.deepEqual(chooseMlbbPackage(verified({})), {
    kind: "ok",
    package: "mlbb",
  });
  assert.deepEqual(chooseMlbbPackage(verified({ region: undefined })), {
    kind: "ok",
    package: "mlbb",
  });
});

Deno.test("[package] both valid with mlbb out of stock falls back to mlbb_special", () => {
  const outOfStock = { ...inStock, mlbb: true };
  assert.deepEqual(chooseMlbbPackage(verified({ outOfStock })), {
    kind: "ok",
    package: "mlbb_special",
  });
});

Deno.test("[package] special valid alone gives mlbb_special", () => {
  assert.deepEqual(chooseMlbbPackage(verified({ globalValid: false })), {
    kind: "ok",
    package: "mlbb_special",
  });
});

Deno.test("[package] global valid alone gives mlbb_global", () => {
  assert.deepEqual(
    chooseMlbbPackage(verified({ specialValid: false, region: "Philippines" })),
    {
      kind: "ok",
      package: "mlbb_global",
    },
  );
});

Deno.test("[package] global valid alone with mlbb_global out of stock is out of stock", () => {
  const outOfStock = { ...inStock, mlbb_global: true };
  assert.deepEqual(
    chooseMlbbPackage(verified({ specialValid: false, outOfStock })),
    {
      kind: "out_of_stock",
      package: "mlbb_global",
    },
  );
});

Deno.test("[package] mlbb_special chosen but out of stock is out of stock", () => {
  const outOfStock = { ...inStock, mlbb_special: true };
  assert.deepEqual(
    chooseMlbbPackage(verified({ region: "Philippines", outOfStock })),
    {
      kind: "out_of_stock",
      package: "mlbb_special",
    },
  );
  assert.deepEqual(
    chooseMlbbPackage(verified({ outOfStock: { ...outOfStock, mlbb: true } })),
    {
      kind: "out_of_stock",
      package: "mlbb_special",
    },
  );
});

Deno.test("[package] neither valid is an invalid user", () => {
  assert.deepEqual(
    chooseMlbbPackage(verified({ globalValid: false, specialValid: false })),
    { kind: "invalid" },
  );
});

Deno.test("[package] 'Game is under maintenance' is out of stock, not an invalid user", () => {
  const error = { errorText: "Game is under maintenance" };
  assert.deepEqual(
    chooseMlbbPackage(
      verified({ globalValid: false, specialValid: false, ...error }),
    ),
    { kind: "out_of_stock" },
  );
  assert.deepEqual(chooseMlbbPackage(verified(error)), {
    kind: "out_of_stock",
    package: "mlbb",
  });
});

Deno.test("[package] any other error text is an invalid user, whatever the flags say", () => {
  const errorText = "User not found";
  assert.deepEqual(
    chooseMlbbPackage(
      verified({ globalValid: false, specialValid: false, errorText }),
    ),
    { kind: "invalid" },
  );
  assert.deepEqual(chooseMlbbPackage(verified({ errorText })), {
    kind: "invalid",
  });
});

Deno.test("[package] a blank error text is no error", () => {
  assert.deepEqual(chooseMlbbPackage(verified({ errorText: "  " })), {
    kind: "ok",
    package: "mlbb",
  });
});

Deno.test("[package] banner texts are the spec's exact words", () => {
  assert.equal(INVALID_USER_TITLE, "Invalid user");
  assert.equal(INVALID_USER_DETAIL, "Please check and try again.");
  assert.equal(
    formatOutOfStockTitle("mlbb_special"),
    "Items for mlbb_special are currently Out of Stock / Under Maintenance.",
  );
  assert.equal(OUT_OF_STOCK_DETAIL, "Please try again later.");
});
