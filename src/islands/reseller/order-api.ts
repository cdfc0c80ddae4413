// The reseller's verify and place-order calls (spec §7 Reseller) and their failure texts (§8).
import type { ResellerGameDto, ResellerItemDto } from "../../shared/game-types.ts";
import type { PlaceOrderBody } from "../../shared/order-types.ts";
import { ApiError, callApi } from "../lib/api.ts";

/** The Mobile Legends packages; mlbb is the standard one (spec §3 Package). */
export type MlbbPackage = "mlbb" | "mlbb_special" | "mlbb_global";

/** The signed-in reseller as the order calls name it. */
export interface ResellerRef {
  id: string;
  name: string;
}

/** The verified account an order is for. */
export interface OrderTarget {
  userid: string;
  serverid: string;
  userName: string;
}

/** What a verification decided (spec §4): the account's name, a stock problem, or invalid. */
export type Verification =
  | { kind: "ok"; userName: string; package?: MlbbPackage }
  | { kind: "out_of_stock"; package?: MlbbPackage }
  | { kind: "invalid" };

/** The verification error text that means a stock problem rather than a bad account (spec §4). */
const UNDER_MAINTENANCE = "game is under maintenance";

const isMaintenance = (text: string) => text.trim().toLowerCase() === UNDER_MAINTENANCE;

interface MlbbVerifyAnswer {
  name1: string;
  name2: string;
  choice: Verification;
}

/** POST /api/resellers/verify_id/mlbb: the server applies the spec §4 package choice. */
export async function verifyMlbbAccount(
  userid: string,
  serverid: string,
  reseller: ResellerRef,
): Promise<Verification> {
  const answer = await callApi<MlbbVerifyAnswer>("POST", "/api/resellers/verify_id/mlbb", {
    userid,
    serverid,
    reseller: reseller.name,
  });
  const { choice, name1, name2 } = answer;
  if (choice.kind !== "ok") return choice;
  const userName = choice.package === "mlbb_special" ? name2 || name1 : name1 || name2;
  return { kind: "ok", package: choice.package, userName };
}

/** Verifies an account of a launched game with its supplier: elephant or monkey. */
export async function verifyGameAccount(
  game: ResellerGameDto,
  userid: string,
  serverid: string,
  reseller: ResellerRef,
  characterName = "",
): Promise<Verification> {
  if (game.supplier === "elephant") {
    const answer = await callApi<{ valid: string; name: string; error: string }>(
      "POST",
      "/api/resellers/verify_id",
      { game: game.supplierName, userid, serverid, reseller: reseller.name },
    );
    if (answer.valid === "valid") return { kind: "ok", userName: answer.name };
    return isMaintenance(answer.error ?? "") ? { kind: "out_of_stock" } : { kind: "invalid" };
  }
  if (game.supplier === "monkey") {
    const answer = await callApi<{ status: string; username: string; message: string }>(
      "POST",
      "/api/product_validate",
      {
        game: game.supplierGameID,
        userid,
        serverid,
        ...(characterName ? { characterName } : {}),
        reseller: reseller.name,
        gameName: game.name,
      },
    );
    if (answer.status === "true") return { kind: "ok", userName: answer.username };
    return isMaintenance(answer.message ?? "") ? { kind: "out_of_stock" } : { kind: "invalid" };
  }
  // No supplier can take an order for this game, so it cannot be stocked.
  return { kind: "out_of_stock" };
}

/** POSTs an order with its Idempotency-Key, so a double click or a retry of one confirmation is charged once. */
function postOrder(path: string, body: unknown, idempotencyKey: string): Promise<unknown> {
  return callApi("POST", path, body, { "Idempotency-Key": idempotencyKey });
}

function commonBody(
  reseller: ResellerRef,
  game: string,
  target: OrderTarget,
  item: ResellerItemDto,
): PlaceOrderBody {
  return {
    reseller: { name: reseller.name, id: reseller.id },
    game,
    userid: target.userid,
    serverid: target.serverid,
    denom: item.key,
    userName: target.userName,
    itemName: item.name,
    amount: item.price,
    cost: 0,
  };
}

/** POST /api/reseller/place_order/mlbb for the verified account's package. */
export function placeMlbbOrder(
  reseller: ResellerRef,
  target: OrderTarget,
  item: ResellerItemDto,
  pkg: MlbbPackage,
  idempotencyKey: string,
): Promise<unknown> {
  const body = { ...commonBody(reseller, "Mobile Legends", target, item), package: pkg };
  return postOrder("/api/reseller/place_order/mlbb", body, idempotencyKey);
}

/** POST /api/reseller/place_order (elephant) or /api/create_order (monkey). */
export function placeGameOrder(
  reseller: ResellerRef,
  game: ResellerGameDto,
  target: OrderTarget,
  item: ResellerItemDto,
  idempotencyKey: string,
): Promise<unknown> {
  const body = commonBody(reseller, game.name, target, item);
  return game.supplier === "monkey"
    ? postOrder("/api/create_order", { ...body, productID: game.supplierGameID }, idempotencyKey)
    : postOrder(
      "/api/reseller/place_order",
      { ...body, supplierGameName: game.supplierName },
      idempotencyKey,
    );
}

function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "string" ? error : JSON.stringify(body);
}

/** Spec §8 place-order alerts: 403 is the balance, other statuses and no response differ. */
export function placeOrderFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return "Insufficient balance in your account, please check.";
    return `Failed to place order, please try again. Status: ${error.status}, Error: ${
      bodyText(error.body)
    }`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Failed to place order, please try again. Error: ${message}`;
}
