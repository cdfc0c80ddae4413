import assert from "node:assert/strict";
import { isPurchasable } from "../../src/domain/catalogue/games.ts";
import { newGameItem } from "../../src/domain/catalogue/launch.ts";
import type { GameItemDto, GamePackageDto } from "../../src/shared/game-types.ts";

const item = (over: Partial<GameItemDto> = {}): GameItemDto => ({
  ...newGameItem("60 UC", { cost: "0.88", name: "60 UC" }),
  ...over,
});

const pkg = (over: Partial<GamePackageDto> = {}): GamePackageDto => ({
  name: "mlbb",
  supplierPackageName: "mlbb",
  description: "",
  remarks: "",
  isHidden: false,
  isOutOfStock: false,
  markupConsumer: 0,
  gameItems: [item()],
  ...over,
});

Deno.test("[games] a game with no items is purchasable by no one", () => {
  const game = { hasPackages: false, gameItems: [], packages: [] };
  assert.equal(isPurchasable(game, "reseller"), false);
  assert.equal(isPurchasable(game, "consumer"), false);
});

Deno.test("[games] an item hidden from one audience leaves the game to the other", () => {
  const game = { hasPackages: false, gameItems: [item({ isHiddenReseller: true })], packages: [] };
  assert.equal(isPurchasable(game, "reseller"), false);
  assert.equal(isPurchasable(game, "consumer"), true);
  const consumerHidden = { ...game, gameItems: [item({ isHiddenConsumer: true })] };
  assert.equal(isPurchasable(consumerHidden, "reseller"), true);
  assert.equal(isPurchasable(consumerHidden, "consumer"), false);
});

Deno.test("[games] a game with packages counts only items of packages that are shown", () => {
  const hidden = { hasPackages: true, gameItems: [], packages: [pkg({ isHidden: true })] };
  assert.equal(isPurchasable(hidden, "reseller"), false);
  const empty = { hasPackages: true, gameItems: [], packages: [pkg({ gameItems: [] })] };
  assert.equal(isPurchasable(empty, "consumer"), false);
  const shown = { hasPackages: true, gameItems: [], packages: [pkg({ isHidden: true }), pkg()] };
  assert.equal(isPurchasable(shown, "reseller"), true);
});

Deno.test("[games] an out-of-stock game stays purchasable, to show its out-of-stock banner", () => {
  const game = { hasPackages: true, gameItems: [], packages: [pkg({ isOutOfStock: true })] };
  assert.equal(isPurchasable(game, "reseller"), true);
});
