import assert from "node:assert/strict";
import { TestClient } from "./client.ts";
import { pubgOrder } from "./orders.ts";

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
