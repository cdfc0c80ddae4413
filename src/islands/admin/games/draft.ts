// The edit-game form's working copy of a game, and the PUT /api/game/{id} body made from it.
import type { GameDto, GameItemDto } from "../../../shared/game-types.ts";

/** Spec §9: the special game whose items may be marked 2x recharge. */
export const MOBILE_LEGENDS = "Mobile Legends";

/** One server of a game as the form edits it; saved as the `servers` map of label to value. */
export interface ServerRow {
  label: string;
  value: string;
}

/**
 * A game as the form holds it between tabs. Servers are a list so that renaming a label while
 * typing never collides with another key or reorders the rows.
 */
export interface GameDraft extends Omit<GameDto, "servers"> {
  servers: ServerRow[];
}

/** Applies a change to some fields of the draft. */
export type UpdateDraft = (patch: Partial<GameDraft>) => void;

/** The body of PUT /api/game/{id}: every editable field plus the version that was loaded. */
export type GameSaveBody = Omit<GameDto, "_id" | "supplier" | "supplierName" | "supplierGameID">;

/** The draft for a freshly loaded game. */
export function toDraft(game: GameDto): GameDraft {
  return {
    ...game,
    servers: Object.entries(game.servers).map(([label, value]) => ({ label, value })),
  };
}

/** The PUT body for a draft; server rows without a label are dropped. */
export function toSaveBody(draft: GameDraft): GameSaveBody {
  const {
    _id: _ignoredId,
    supplier: _ignoredSupplier,
    supplierName: _ignoredSupplierName,
    supplierGameID: _ignoredSupplierGameID,
    servers,
    ...editable
  } = draft;
  return {
    ...editable,
    servers: Object.fromEntries(
      servers.filter((s) => s.label.trim()).map((s) => [s.label.trim(), s.value]),
    ),
  };
}

/** Spec §2: a discount of 0 percent means the item is not discounted. */
export function withDiscount(
  item: GameItemDto,
  audience: "Consumer" | "Reseller",
  rate: number,
): GameItemDto {
  return audience === "Consumer"
    ? { ...item, discountRateConsumer: rate, isDiscountedConsumer: rate > 0 }
    : { ...item, discountRateReseller: rate, isDiscountedReseller: rate > 0 };
}

/** Spec §8: 'Failure <action>, please try again. Error: <error>'. */
export function failureText(action: string, error: unknown): string {
  return `Failure ${action}, please try again. Error: ${errorText(error)}`;
}

/** The server's error text (an ApiError's message), else the error's message. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
