import assert from "node:assert/strict";
import { HITPAY_SIMULATOR_CREDENTIALS } from "../../src/config.ts";
import { signHitPayV1 } from "../../src/integrations/hitpay/webhook.ts";
import { TestClient } from "./client.ts";
import type { GameDto, GameItemDto } from "../../src/shared/game-types.ts";

/** A Mobile Legends account the EliteDias simulator verifies for the mlbb_special package. */
export const SPECIAL_ACCOUNT = { userid: "22222222", serverid: "2222" };

/** A browser at its own client address (the server runs with TRUST_PROXY=true). */
export function consumerAt(base: string, ip: string): TestClient {
  return new TestClient(base, { "x-forwarded-for": ip });
}

/** What the top-up page sends for `denom` at `amount` (spec §7 Consumer payment body). */
export function paymentBody(
  denom: string,
  amount: number,
  overrides: Record<string, unknown> = {},
) {
  return {
    consumer: {
      firstName: "Ana",
      lastName: "Buyer",
      phone: "+65 8123 4567",
      email: "ana@example.com",
      confirmEmail: "ana@example.com",
      paymentMethod: "paynow",
    },
    game: "Mobile Legends",
    ...SPECIAL_ACCOUNT,
    denom,
    userName: "Ana",
    itemName: denom,
    amount,
    cost: 1,
    package: "mlbb_special",
    ...overrides,
  };
}

/** Pulls a lever of the HitPay simulator mounted on the test server. */
export async function hitpaySim(base: string, action: string, args: unknown[] = []) {
  const r = await fetch(new URL("/__sim/control", base), {
    method: "POST",
    body: JSON.stringify({ target: "hitpay", action, args }),
  });
  const json = await r.json();
  assert.equal(r.status, 200, JSON.stringify(json));
  return json.result;
}

/** The payment request the simulator holds for our order. */
export async function paymentRequestOf(base: string, orderId: string) {
  const requests = await hitpaySim(base, "listRequests") as {
    id: string;
    amount: string;
    reference_number: string;
  }[];
  const request = requests.find((r) => r.reference_number === orderId);
  assert.ok(request, `no payment request for ${orderId}`);
  return request;
}

/** A v1 webhook body as HitPay signs it, for the fields given (hmac appended). */
export function signedWebhook(fields: Record<string, string>): string {
  const hmac = signHitPayV1(fields, HITPAY_SIMULATOR_CREDENTIALS.salt);
  return new URLSearchParams({ ...fields, hmac }).toString();
}

/** Posts a webhook body the way HitPay does: form-encoded (v1) unless `headers` say otherwise. */
export async function postWebhook(
  base: string,
  body: string,
  headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" },
) {
  const r = await fetch(new URL("/api/payment/hitpay/webhook", base), {
    method: "POST",
    headers,
    body,
  });
  return { status: r.status, json: await r.json() };
}

/** Polls the public status call until it answers one of `wanted` (or gives up after ~30 s). */
export async function waitForStatus(
  client: TestClient,
  orderId: string,
  wanted: string[],
): Promise<string> {
  let status = "";
  for (let i = 0; i < 150 && !wanted.includes(status); i++) {
    if (i) await new Promise((ok) => setTimeout(ok, 200));
    const r = await client.get(`/api/order/${orderId}/status`);
    assert.equal(r.status, 200, r.text);
    status = r.json.status;
  }
  return status;
}

/** Saves `game` with `changes` applied to item `denom` of package `pkg`, as the admin's toggles do. */
export async function saveItemChanges(
  admin: TestClient,
  game: GameDto,
  pkg: string,
  denom: string,
  changes: Partial<GameItemDto>,
) {
  const put = await admin.request("PUT", `/api/game/${game._id}`, {
    ...game,
    packages: game.packages.map((p) =>
      p.name !== pkg ? p : {
        ...p,
        gameItems: p.gameItems.map((i) => i.nameSupplier === denom ? { ...i, ...changes } : i),
      }
    ),
  });
  assert.equal(put.status, 200, put.text);
  return put.json as GameDto;
}

/** An account for bank transfers, so the shop offers them (Settings → Bank Transfer). */
export const BANK_ACCOUNT = {
  bankName: "DBS Bank",
  accountName: "TopUp Pte Ltd",
  accountNumber: "072-123456-7",
};

/** Saves BANK_ACCOUNT as `admin` (a signed-in admin's client). */
export async function offerBankTransfer(admin: TestClient): Promise<void> {
  const saved = await admin.request("PUT", "/api/settings/bank-transfer", BANK_ACCOUNT);
  assert.equal(saved.status, 200, saved.text);
}
