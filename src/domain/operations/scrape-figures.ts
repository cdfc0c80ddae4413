// What GET /metrics reads from the database at each scrape, besides the job queue: Needs review's
// size, the open orders by state with the oldest one's age, the market rate's age, and the last
// HitPay reconciliation (a cron's own process, so it is read back from where it left its outcome).
import type { Db } from "../../db/client.ts";
import { countOrdersInReview } from "../../db/repositories/operations.ts";
import { openOrderFigures } from "../../db/repositories/orders.ts";
import { getSetting } from "../../db/repositories/settings.ts";
import type { ScrapeFigures } from "../../observability/metrics.ts";
import { REVIEWABLE_STATES } from "../orders/lifecycle.ts";
import { AWAITING_PAYMENT, PAYMENT_RECEIVED } from "../payments/consumer-states.ts";
import { RECONCILE_LAST_RUN_KEY } from "../payments/consumer-payments.ts";
import { FX_MARKET_RATE_KEY } from "../catalogue/exchange-rate.ts";

/** The open states as operators name them; every one is exported, at 0 when empty. */
export const OPEN_ORDER_STATES = [
  "awaiting_payment",
  "awaiting_supplier",
  "pending_at_supplier",
] as const;

type OpenState = typeof OPEN_ORDER_STATES[number];

/** A reseller order is `new` until EliteDias/MooGold accepts it; a consumer one keeps its paid state. */
function openStateOf(status: string, sent: boolean): OpenState | undefined {
  if (status === AWAITING_PAYMENT) return "awaiting_payment";
  if (status === "new") return "awaiting_supplier";
  if (status === "pending") return "pending_at_supplier";
  if (status === PAYMENT_RECEIVED) return sent ? "pending_at_supplier" : "awaiting_supplier";
  return undefined;
}

export async function readScrapeFigures(db: Db, now = new Date()): Promise<ScrapeFigures> {
  const [review, open, rate, reconcile] = await Promise.all([
    countOrdersInReview(db, REVIEWABLE_STATES, now),
    openOrderFigures(db, [AWAITING_PAYMENT, "new", "pending", PAYMENT_RECEIVED]),
    getSetting<{ fetchedAt?: string }>(db, FX_MARKET_RATE_KEY),
    getSetting<{ endedAt?: string; outcomes?: Record<string, number> }>(
      db,
      RECONCILE_LAST_RUN_KEY,
    ),
  ]);
  const byState = new Map<OpenState, { count: number; oldestAgeSeconds: number }>(
    OPEN_ORDER_STATES.map((state) => [state, { count: 0, oldestAgeSeconds: 0 }]),
  );
  for (const row of open) {
    const state = openStateOf(row.status, row.sent);
    if (!state) continue;
    const figure = byState.get(state)!;
    figure.count += row.count;
    const age = Math.max(0, (now.getTime() - row.oldestPlacedAt.getTime()) / 1000);
    figure.oldestAgeSeconds = Math.max(figure.oldestAgeSeconds, age);
  }
  const fetchedAt = rate?.fetchedAt ? Date.parse(rate.fetchedAt) : NaN;
  const endedAt = reconcile?.endedAt ? new Date(reconcile.endedAt) : undefined;
  return {
    inReview: review.total,
    open: [...byState].map(([state, f]) => ({ state, ...f })),
    ...(Number.isNaN(fetchedAt)
      ? {}
      : { fxRateAgeSeconds: Math.max(0, (now.getTime() - fetchedAt) / 1000) }),
    ...(endedAt && !Number.isNaN(endedAt.getTime())
      ? { reconcile: { endedAt, outcomes: reconcile?.outcomes ?? {} } }
      : {}),
  };
}
