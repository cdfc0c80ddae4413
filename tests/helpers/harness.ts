import assert from "node:assert/strict";
import { TestClient } from "./client.ts";
import { pubgOrder } from "./orders.ts";
import type { InvariantViolation } from "../../src/domain/ledger/invariants.ts";

const PASSWORD = "load reseller password";

export interface SignedInReseller {
  id: string;
  client: TestClient;
}

/**
 * Creates `count` resellers through the admin console with `balanceCents` each and signs each in
 * (the server must create resellers without two-factor: RESELLER_2FA_DEFAULT=false), a few at a
 * time: each costs two password hashes.
 */
export async function createSignedInResellers(
  admin: TestClient,
  count: number,
  balanceCents: number,
  tag: string,
): Promise<SignedInReseller[]> {
  const made: SignedInReseller[] = [];
  for (let start = 0; start < count; start += 4) {
    const batch = Array.from({ length: Math.min(4, count - start) }, (_, j) => start + j);
    made.push(
      ...await Promise.all(batch.map(async (i) => {
        const email = `${tag}-${i}@load.example`;
        const created = await admin.post("/api/reseller", {
          name: `${tag} ${i}`,
          email,
          password: PASSWORD,
          balance: balanceCents / 100,
          markup: { mlbb: 5, mlbb_global: 5, mlbb_special: 5 },
        });
        assert.equal(created.status, 201, created.text);
        const client = new TestClient(admin.base);
        const login = await client.post("/api/login_reseller", {
          username: email,
          password: PASSWORD,
        });
        assert.equal(login.status, 200, login.text);
        return { id: created.json._id as string, client };
      })),
    );
  }
  return made;
}

/** The PUBG order body as `reseller` sees it, with its price in cents. */
export async function pubgOrderFor(reseller: SignedInReseller) {
  const { body, item } = await pubgOrder(reseller.client);
  return { body, cents: Math.round(item.price * 100) };
}

/** Asks the server for its invariants (GET /__sim/invariants) and fails on any violation. */
export async function assertInvariantsHold(base: string): Promise<void> {
  const r = await fetch(new URL("/__sim/invariants", base));
  assert.equal(r.status, 200);
  const { violations } = await r.json() as { violations: InvariantViolation[] };
  assert.deepEqual(violations, []);
}

/**
 * Lets the job runner and the admin's "refresh all" finish every open order: refreshes until no
 * order is left open (new, pending, or paid and not delivered) but those waiting in Needs review,
 * which no refresh may settle: a create whose outcome the crash or the cut connection left unknown
 * (EliteDias) is an operator's to resolve, never sent again. Returns the refreshes it took.
 */
export async function settleOpenOrders(admin: TestClient, maxRounds = 120): Promise<number> {
  for (let round = 1; round <= maxRounds; round++) {
    const r = await admin.post("/api/reseller/orders/refresh_all_status");
    assert.equal(r.status, 200, r.text);
    const review = await admin.get("/api/orders/review");
    assert.equal(review.status, 200, review.text);
    if (r.json.checked <= review.json.orders.length) return round;
    await new Promise((ok) => setTimeout(ok, 250));
  }
  throw new Error(`orders still open after ${maxRounds} refreshes`);
}

/** A free TCP port on 127.0.0.1, so a restarted server answers at the same address. */
export function freePort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}
