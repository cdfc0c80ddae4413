// A hand-computed dashboard fixture: orders on each window's edges (exactly on the edge counts, a
// millisecond before does not), an excluded internal account, a hidden reseller name, a consumer
// order, and orders that are not successful. The expected figures are in tests/db/dashboard_test.ts.
import type { Db } from "../../src/db/client.ts";
import type { NewOrder } from "../../src/db/schema.ts";
import type { OrderStatus } from "../../src/shared/order-lifecycle.ts";
import { createReseller } from "../../src/domain/auth/users.ts";
import { LIFETIME_START } from "../../src/domain/admin/dashboard.ts";

const H = 3_600_000;

export interface DashboardFixture {
  alpha: string;
  bravo: string;
  internal: string;
  hidden: string;
}

async function reseller(db: Db, name: string, balanceCents: number): Promise<string> {
  const r = await createReseller(db, {
    name,
    email: `${name.toLowerCase().replaceAll(" ", ".")}@dashboard.example`,
    password: "fixture-password",
    balanceCents,
    markup: {},
    twoFAEnabled: false,
    createdBy: "fixture",
  });
  return r._id;
}

/** Seeds the fixture with every date relative to `now`. */
export async function seedDashboardFixture(db: Db, now: Date): Promise<DashboardFixture> {
  const alpha = await reseller(db, "Alpha", 10_000);
  const bravo = await reseller(db, "Bravo", 5_050);
  const internal = await reseller(db, "Internal One", 1_000_000);
  const hidden = await reseller(db, "Hidden Shop", 2_500);
  const names: Record<string, string> = {
    [alpha]: "Alpha",
    [bravo]: "Bravo",
    [internal]: "Internal One",
    [hidden]: "Hidden Shop",
  };
  const ago = (ms: number) => new Date(now.getTime() - ms);
  let n = 0;
  const order = (
    buyer: string | null,
    at: Date,
    amountCents: number,
    cost: string,
    pkg: string | null,
    status: OrderStatus = "successful",
  ): NewOrder => ({
    id: `FIX-${String(++n).padStart(3, "0")}`,
    buyer_type: buyer ? "reseller" : "consumer",
    status,
    reseller_id: buyer,
    reseller_name: buyer ? names[buyer] : null,
    consumer_name: buyer ? null : "Casey Consumer",
    game: pkg ? "Mobile Legends" : "Genshin Impact",
    package: pkg,
    item: "Fixture item",
    denom: "1",
    user_id: "12345678",
    amount_cents: amountCents,
    cost,
    supplier: "elephant",
    created_at: at.toISOString(),
  });
  await db.insertInto("orders").values([
    order(alpha, ago(8 * H), 1000, "8.505", "mlbb"),
    order(alpha, ago(8 * H + 1), 2000, "15.00", "mlbb_special"),
    order(alpha, ago(24 * H), 300, "2.50", "mlbb_global"),
    order(alpha, ago(24 * H + 1), 450, "4.00", null),
    order(bravo, ago(168 * H), 1500, "12.3333", "mlbb"),
    order(bravo, ago(168 * H + 1), 700, "6.00", "mlbb"),
    order(bravo, LIFETIME_START, 100, "0.90", "mlbb_special"),
    order(bravo, new Date(LIFETIME_START.getTime() - 1), 5000, "1.00", "mlbb"),
    order(null, ago(1 * H), 1200, "10.00", "mlbb"),
    order(internal, ago(1 * H), 9999, "1.00", "mlbb"),
    order(hidden, ago(2 * H), 800, "7.00", "mlbb"),
    order(alpha, ago(1 * H), 4000, "30.00", "mlbb", "error"),
    order(alpha, ago(1 * H), 4000, "30.00", "mlbb", "pending"),
    order(alpha, ago(1 * H), 4000, "30.00", "mlbb", "new"),
    order(null, ago(1 * H), 4000, "30.00", "mlbb", "pending-customer-payment"),
    order(null, ago(1 * H), 4000, "30.00", "mlbb", "payment-received-pending-disbursement"),
  ]).execute();
  return { alpha, bravo, internal, hidden };
}
