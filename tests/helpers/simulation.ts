// The seeded simulation (TigerBeetle style): a seed decides a short schedule of steps —
// reseller orders (bursts, by one reseller or several at once, shared Idempotency-Keys, bad
// accounts), operator top-ups and deductions,
// consumer payments with HitPay webhooks repeated, reordered and forged, manual payments, supplier
// faults (error, timeout, garbage, slow answer, refusal), status refreshes and admin edits, HitPay
// refund faults (refused, slow, lost answer), late payments on expired orders, and consumer orders
// their suppliers refuse after payment (a refusal moving the order to its item's next route, out
// of stock or balance short there) — run against a real server and its simulators. After every
// step the server's invariants (GET /__sim/invariants, src/domain/ledger/invariants.ts) must hold
// and no answer may be a 5xx other than an upstream's 502; at a seed's end, once its consumer
// orders' jobs ran, GET /__sim/outcomes tells how its paid orders ended (SimFigures). A failure names its seed; `npm run sim -- --seed N` replays the same schedule.
import { TestClient } from "./client.ts";
import { signInAdmin } from "./sessions.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";
import {
  DEMO_PASSWORDS,
  HITPAY_SIMULATOR_CREDENTIALS,
  SIMULATOR_CREDENTIALS,
} from "../../src/config.ts";
import { moogoldBasicAuth } from "../../src/integrations/moogold/wire.ts";
import { offerBankTransfer, paymentBody, signedWebhook } from "./consumer-payments.ts";
import { createSeededRandom } from "../../src/integrations/simulator-kit.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import {
  AWAITING_PAYMENT,
  PAYMENT_EXPIRED,
  PAYMENT_FAILED,
} from "../../src/domain/payments/consumer-states.ts";
import type { InvariantViolation } from "../../src/domain/ledger/invariants.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

type Target = "moogold" | "elitedias";
type Fault = "error" | "timeout" | "malformed" | "lost";
/** What HitPay does to refunds: refuses (its 422), answers slowly, or makes one and loses the answer. */
type RefundFault = "error" | "timeout" | "lost" | "slow";
/** What MooGold, the next route of the EliteDias item the buyer paid for, does with the order. */
type RouteRefusal = "accept" | "outOfStock" | "balanceShort";
type WebhookKind = "completed" | "failed" | "pending" | "forged" | "wrongAmount" | "otherRequest";

/** One step of a schedule; amounts are in "orders' worth" of the PUBG item, priced at run time. */
export type SimStep =
  | {
    kind: "order";
    /** Each places the burst, all at once. */
    resellers: number[];
    game: "pubg" | "freefire";
    copies: number;
    sharedKey: boolean;
    validAccount: boolean;
  }
  | { kind: "topup"; reseller: number; units: number }
  | { kind: "deduct"; reseller: number; units: number }
  | { kind: "fault"; target: Target; fault: Fault; count: number; endpoint: string | null }
  | { kind: "slow"; target: Target; latencyMs: number }
  | { kind: "reject"; target: Target }
  | { kind: "recover" }
  | { kind: "refresh"; reseller: number | "admin" }
  | { kind: "consumer"; webhooks: { kind: WebhookKind; copies: number; parallel: boolean }[] }
  | { kind: "held"; resend: boolean }
  | { kind: "manual"; cancel: boolean; twice: boolean }
  | { kind: "edit"; reseller: number; markup: number }
  | { kind: "wait"; ms: number }
  | { kind: "refundFault"; fault: RefundFault; count: number; latencyMs: number }
  | { kind: "late" }
  | { kind: "undelivered"; game: "mlbb" | "genshin"; moogold: RouteRefusal };

/** A seed's world: its resellers' starting balances (in orders' worth) and its steps. */
export interface Schedule {
  seed: number;
  resellers: number[];
  steps: SimStep[];
}

const ENDPOINTS: Record<Target, (string | null)[]> = {
  moogold: [
    "order/create_order",
    "order/order_detail",
    "order/order_detail_partner_id",
    "product/product_detail",
    null,
  ],
  elitedias: ["elitedias_reseller_topup_api", "track_order", null],
};

/** The schedule a seed stands for: the same seed gives the same schedule, everywhere. */
export function generateSchedule(seed: number, length: number): Schedule {
  const random = createSeededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  const chance = (p: number) => random() < p;
  const resellers = Array.from({ length: int(2, 4) }, () => int(0, 6));
  const reseller = () => int(0, resellers.length - 1);
  const target = (): Target => pick(["moogold", "elitedias"] as const);
  const weighted: [number, () => SimStep][] = [
    [30, () => ({
      kind: "order",
      resellers: chance(0.3)
        ? resellers.map((_, i) => i).filter((i) => i === 0 || chance(0.7))
        : [reseller()],
      game: pick(["pubg", "freefire"] as const),
      copies: chance(0.4) ? int(2, 6) : 1,
      sharedKey: chance(0.3),
      validAccount: chance(0.85),
    })],
    [16, () => ({
      kind: "consumer",
      webhooks: Array.from({ length: int(1, 5) }, () => ({
        kind: pick(
          [
            "completed",
            "completed",
            "failed",
            "pending",
            "forged",
            "wrongAmount",
            "otherRequest",
          ] as const,
        ),
        copies: int(1, 4),
        parallel: chance(0.5),
      })),
    })],
    [12, () => {
      const t = target();
      return {
        kind: "fault",
        target: t,
        fault: pick(["error", "timeout", "malformed", "lost"] as const),
        count: int(1, 3),
        endpoint: pick(ENDPOINTS[t]),
      };
    }],
    [5, () => ({ kind: "held", resend: chance(0.5) })],
    [4, () => ({ kind: "slow", target: target(), latencyMs: int(1100, 1600) })],
    [4, () => ({ kind: "reject", target: target() })],
    [6, () => ({ kind: "recover" })],
    [6, () => ({ kind: "topup", reseller: reseller(), units: int(1, 4) })],
    [5, () => ({ kind: "deduct", reseller: reseller(), units: int(1, 4) })],
    [7, () => ({ kind: "refresh", reseller: chance(0.3) ? "admin" : reseller() })],
    [3, () => ({ kind: "edit", reseller: reseller(), markup: int(0, 20) })],
    [3, () => ({ kind: "manual", cancel: chance(0.3), twice: chance(0.4) })],
    [4, () => ({ kind: "wait", ms: int(50, 400) })],
    [4, () => ({
      kind: "refundFault",
      fault: pick(["error", "timeout", "lost", "slow"] as const),
      count: int(1, 2),
      latencyMs: int(500, 950),
    })],
    [3, () => ({ kind: "late" })],
    [5, () => ({
      kind: "undelivered",
      game: pick(["mlbb", "genshin", "genshin"] as const),
      moogold: pick(["accept", "outOfStock", "balanceShort"] as const),
    })],
  ];
  const total = weighted.reduce((sum, [w]) => sum + w, 0);
  const steps: SimStep[] = [];
  for (let i = 0; i < length; i++) {
    let roll = random() * total;
    const entry = weighted.find(([w]) => (roll -= w) < 0) ?? weighted[0];
    steps.push(entry[1]());
  }
  return { seed, resellers, steps };
}

/** What the simulation did, summed over seeds (RELIABILITY.md quotes these). */
export interface SimFigures {
  seeds: number;
  steps: number;
  requests: number;
  faultsInjected: number;
  ordersPlaced: number;
  refusedInsufficient: number;
  webhooksSent: number;
  webhooksForged: number;
  webhookReplays: number;
  consumerOrders: number;
  /** Consumer payments whose webhook was held, paid from HitPay's answer to a status poll. */
  reconciled: number;
  invariantChecks: number;
  /** HitPay-paid consumer orders, counted at the end of each seed once their jobs ran. */
  paidConsumerOrders: number;
  paidDelivered: number;
  paidRefunded: number;
  paidInReview: number;
  /** In review because HitPay refused the refund (a 422): only an operator can go on. */
  paidRefundRefused: number;
  /** Paid, neither delivered, refunded nor in review when the seed's wait for its jobs ended. */
  paidUnsettled: number;
  /** Paid orders that went on to their item's next route (an attempt at a second supplier). */
  paidRerouted: number;
  /** Paid orders an admin (or the CLI) acted on. */
  paidOperatorTouched: number;
  /** Paid orders delivered or refunded with no admin action. */
  paidSettledUntouched: number;
  /** Late payments made on expired orders. */
  latePayments: number;
  /** From the supplier's definitive refusal (or the late payment) to HitPay's refund, per order. */
  refundLatenciesMs: number[];
}

export function emptyFigures(): SimFigures {
  return {
    seeds: 0,
    steps: 0,
    requests: 0,
    faultsInjected: 0,
    ordersPlaced: 0,
    refusedInsufficient: 0,
    webhooksSent: 0,
    webhooksForged: 0,
    webhookReplays: 0,
    consumerOrders: 0,
    reconciled: 0,
    invariantChecks: 0,
    paidConsumerOrders: 0,
    paidDelivered: 0,
    paidRefunded: 0,
    paidInReview: 0,
    paidRefundRefused: 0,
    paidUnsettled: 0,
    paidRerouted: 0,
    paidOperatorTouched: 0,
    paidSettledUntouched: 0,
    latePayments: 0,
    refundLatenciesMs: [],
  };
}

/** Adds `more` into `totals` (the runs of several servers). */
export function addFigures(totals: SimFigures, more: SimFigures): void {
  for (const key of Object.keys(totals) as (keyof SimFigures)[]) {
    if (key === "refundLatenciesMs") totals[key].push(...more[key]);
    else totals[key] += more[key];
  }
}

/** The figures as `npm run sim` prints them: counts, the settled share and refund latency. */
export function figureSummary(figures: SimFigures) {
  const { refundLatenciesMs, ...counts } = figures;
  const sorted = [...refundLatenciesMs].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : null;
  return {
    ...counts,
    settledUntouchedPercent: figures.paidConsumerOrders
      ? Math.round(10000 * figures.paidSettledUntouched / figures.paidConsumerOrders) / 100
      : null,
    // HitPay refusing a refund is a fault only an operator can take further: the share without it.
    settledUntouchedBarRefusedPercent: figures.paidConsumerOrders - figures.paidRefundRefused
      ? Math.round(
        10000 * figures.paidSettledUntouched /
          (figures.paidConsumerOrders - figures.paidRefundRefused),
      ) / 100
      : null,
    refunds: sorted.length,
    refundLatencyMedianMs: at(0.5),
    refundLatencyP99Ms: at(0.99),
    refundLatencyMaxMs: sorted.at(-1) ?? null,
  };
}

interface Answer {
  status: number;
  text: string;
  // deno-lint-ignore no-explicit-any
  json: any;
}

/** MooGold's product id of Genshin Impact (its catalogue). */
const MOOGOLD_GENSHIN_PRODUCT_ID = 3689112;
/** A Genshin Impact account and server both suppliers' simulators take. */
const GENSHIN_ACCOUNT = { userid: "700123456", serverid: "os_asia" };
/** MooGold simulator's starting balance, given back after a balance-short step. */
const MOOGOLD_BALANCE = "1000.00";
/** Where a paid consumer order ends on its own. */
const SETTLED = ["successful", "refunded"];
const INSUFFICIENT = "Insufficient balance in your account, please check.";
const RESELLER_PASSWORD = "sim reseller password";
const DEFAULT_MARKUP = 5;

/** The server under simulation: its admin session and the catalogue the steps order from. */
export interface SimWorld {
  base: string;
  admin: TestClient;
  pubgId: string;
  freeFire: { id: string; productId: string };
  consumerItem: { denom: string; price: number };
  /** An EliteDias item with MooGold as its next route (set up through the admin API). */
  routedItem: { gameId: string; denom: string; price: number };
  figures: SimFigures;
  /** A new client (cookie jar) that sends its requests to the world's instances in turn. */
  client(headers?: Record<string, string>): TestClient;
  /** Resellers shared by the seeds, signed in once. */
  pool: SimReseller[];
  /** The demo admin's authenticator secret, enrolled when the world opened. */
  adminTotpSecret: string;
}

/** Signs the demo admin in on a fresh demo server and reads the catalogue the steps use. */
export async function openSimWorld(base: string, others: string[] = []): Promise<SimWorld> {
  const { client: signedIn, secret: adminTotpSecret } = await signInAdmin(
    base,
    DEMO_ADMIN.email,
    DEMO_ADMIN.password,
  );
  const instances = [base, ...others];
  const client = (headers: Record<string, string> = {}) => {
    const made = new TestClient(base, headers);
    if (others.length) made.alternate = instances;
    return made;
  };
  signedIn.alternate = others.length ? instances : [];
  await offerBankTransfer(signedIn);
  const games = (await signedIn.get("/api/admin/games"))
    .json as (GameDto & { supplierGameID?: string })[];
  const pubg = games.find((g) => g.supplierName === "pubgm")!;
  const freeFire = games.find((g) => g.supplierName === "Free Fire")!;
  const mlbb = games.find((g) => g.supplierName === "mlbb")!;
  const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
  const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
  const price = centsToDollars(
    computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
  );
  // Genshin Impact is EliteDias's in the demo; MooGold sells it too: its items become the next
  // routes of the game's, matched by name, as an admin maps them.
  const genshin = games.find((g) => g.supplierName === "genshin")!;
  const mapped = await signedIn.post(`/api/admin/games/${genshin._id}/route_map`, {
    supplier: "monkey",
    supplierGameID: String(MOOGOLD_GENSHIN_PRODUCT_ID),
  });
  if (mapped.status !== 200 || !mapped.json.mapped) {
    throw new Error(`routing Genshin Impact to MooGold: ${mapped.status} ${mapped.text}`);
  }
  const routed = genshin.gameItems.find((i) =>
    !i.isHiddenConsumer && !mapped.json.unmatched.includes(i.nameReseller)
  )!;
  return {
    base,
    admin: signedIn,
    pubgId: pubg._id,
    freeFire: { id: freeFire._id, productId: String(freeFire.supplierGameID) },
    consumerItem: { denom: item.nameSupplier, price },
    routedItem: {
      gameId: genshin._id,
      denom: routed.nameSupplier,
      price: centsToDollars(
        computeConsumerPrice(routed, { markupPercent: genshin.consumerMarkup }),
      ),
    },
    figures: emptyFigures(),
    client,
    pool: [],
    adminTotpSecret,
  };
}

/**
 * Every secret a simulation's server saw, by name: the passwords, the admin's TOTP secret, the
 * session tokens of the admin and the pool's resellers, the simulators' API keys, secret key and
 * salt (and MooGold's Basic credentials built from them), and `extra` (the server's APP_SECRET).
 */
export function simulationSecrets(
  world: SimWorld,
  extra: Record<string, string> = {},
): Record<string, string> {
  const sessions = [world.admin, ...world.pool.map((reseller) => reseller.client)]
    .flatMap((client, i) =>
      [...client.cookies.values()].map((token, j) => [`session token ${i}.${j}`, token])
    );
  const { moogold, elitedias } = SIMULATOR_CREDENTIALS;
  return {
    "admin password": DEMO_PASSWORDS.admin,
    "reseller password": DEMO_PASSWORDS.reseller,
    "simulated resellers' password": RESELLER_PASSWORD,
    "admin TOTP secret": world.adminTotpSecret,
    "MooGold secret key": moogold.secretKey,
    "MooGold Basic credentials": moogoldBasicAuth(moogold.partnerId, moogold.secretKey)
      .slice("Basic ".length),
    "EliteDias API key": elitedias.apiKey,
    "HitPay API key": HITPAY_SIMULATOR_CREDENTIALS.apiKey,
    "HitPay salt": HITPAY_SIMULATOR_CREDENTIALS.salt,
    ...Object.fromEntries(sessions),
    ...extra,
  };
}

/**
 * The lines of a server's output that hold one of `secrets`, named (never quoted). The demo's
 * start-up banner, which prints the published demo sign-ins on purpose, is not a log line.
 */
export function linesWithSecrets(output: string, secrets: Record<string, string>): string[] {
  const banner = /^(Admin|Reseller) sign-in: /;
  return output.split("\n").flatMap((line, n) =>
    banner.test(line) ? [] : Object.entries(secrets)
      .filter(([, value]) => value && line.includes(value))
      .map(([name]) => `line ${n + 1} holds the ${name}`)
  );
}

class SimFailure extends Error {}

interface SimReseller {
  id: string;
  email: string;
  client: TestClient;
  markup: Record<string, number>;
  prices: {
    pubg: { key: string; name: string; price: number };
    freefire: { key: string; name: string; price: number };
  };
}

/**
 * Runs one seed's schedule; throws with the seed, the step and the rerun command when an answer
 * is a 5xx or unexpected, or an invariant breaks.
 */
export async function runSeed(
  world: SimWorld,
  seed: number,
  options: { steps: number; log?: (line: string) => void },
): Promise<void> {
  const schedule = generateSchedule(seed, options.steps);
  const log = options.log ?? (() => {});
  const { figures } = world;
  let stepIndex = -1;
  const fail = (problem: string): never => {
    const step = stepIndex < 0
      ? "set-up"
      : `step ${stepIndex + 1} ${JSON.stringify(schedule.steps[stepIndex])}`;
    throw new SimFailure(
      `simulation seed ${seed} failed at ${step}: ${problem}\n` +
        `schedule: ${JSON.stringify(schedule)}\nrerun: npm run sim -- --seed ${seed}`,
    );
  };
  const call = async (
    client: TestClient,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer> => {
    figures.requests++;
    const r = await client.request(method, path, body, headers);
    if (r.status >= 500 && r.status !== 502) {
      fail(`${method} ${path} answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    return r;
  };
  const expect = (r: Answer, statuses: number[], what: string) => {
    if (!statuses.includes(r.status)) {
      fail(`${what}: expected ${statuses.join(" or ")}, got ${r.status} ${r.text.slice(0, 300)}`);
    }
  };
  const control = async (target: string, action: string, args: unknown[] = [], knobs?: unknown) => {
    figures.requests++;
    const r = await fetch(new URL("/__sim/control", world.base), {
      method: "POST",
      body: JSON.stringify({ target, action, args, knobs }),
    });
    const json = await r.json();
    if (r.status !== 200) fail(`simulator control ${target} ${action}: ${JSON.stringify(json)}`);
    return json.result;
  };
  const checkInvariants = async () => {
    figures.requests++;
    figures.invariantChecks++;
    const r = await fetch(new URL("/__sim/invariants", world.base));
    if (r.status !== 200) fail(`invariant check answered ${r.status}`);
    const { violations } = await r.json() as { violations: InvariantViolation[] };
    if (violations.length) fail(`invariants broken: ${JSON.stringify(violations, null, 1)}`);
    // EliteDias cannot be asked by our reference and may not deduplicate on it: a top-up request
    // that reached it is never sent again (its simulator answers a repeat with the first order,
    // so the orders it holds cannot show a repeat; the requests it received can).
    const counts = await control("elitedias", "countsByReference") as {
      reference: string;
      requests: number;
    }[];
    const repeated = counts.filter((c) => c.reference !== "" && c.requests > 1);
    if (repeated.length) fail(`EliteDias top-ups sent again: ${JSON.stringify(repeated)}`);
  };
  /**
   * A new buyer starts a HitPay payment: the buyer, the order and its HitPay request, or
   * undefined when the payment was refused (a supplier fault during the account check refuses it
   * before any order is paid).
   */
  const startHitPayPayment = async (game: "mlbb" | "genshin" = "mlbb") => {
    const buyer = world.client({ "x-forwarded-for": consumerAddress() });
    const { denom, price } = game === "mlbb" ? world.consumerItem : world.routedItem;
    const made = game === "mlbb"
      ? await call(buyer, "POST", "/api/payment/hitpay/mlbb", paymentBody(denom, price))
      : await call(
        buyer,
        "POST",
        "/api/payment/hitpay/genshin-impact",
        paymentBody(denom, price, {
          game: "Genshin Impact",
          ...GENSHIN_ACCOUNT,
          package: undefined,
        }),
      );
    expect(made, [201, 400, 409, 502], "consumer payment");
    if (made.status !== 201) return undefined;
    figures.consumerOrders++;
    const orderId = made.json.orderID as string;
    const requests = await control("hitpay", "listRequests") as {
      id: string;
      reference_number: string;
    }[];
    const requestId = requests.find((q) => q.reference_number === orderId)?.id;
    if (!requestId) fail(`no HitPay request for ${orderId}`);
    return { buyer, orderId, requestId: requestId! };
  };
  const recover = async () => {
    for (const target of ["moogold", "elitedias"]) {
      await control(target, "clearFaults");
      await control(target, "acceptOrders");
      await control(target, "setKnobs", [], { latencyMs: 0 });
    }
    await control("hitpay", "clearFaults");
    await control("hitpay", "setKnobs", [], { latencyMs: 0 });
  };
  /** Polls the buyer's status of an order until `done` says so or `ms` pass; the last status. */
  const pollStatus = async (
    buyer: TestClient,
    orderId: string,
    done: (status: string) => boolean,
    ms: number,
  ): Promise<string> => {
    const until = Date.now() + ms;
    for (;;) {
      const r = await call(buyer, "GET", `/api/order/${orderId}/status`);
      expect(r, [200], "order status");
      if (done(r.json.status) || Date.now() >= until) return r.json.status;
      await new Promise((ok) => setTimeout(ok, 100));
    }
  };
  /**
   * A buyer pays for `game`'s item while EliteDias refuses it and MooGold, its next route where it
   * has one, does `moogold`; waits up to `ms` for the order to be delivered or refunded. The
   * refusals end with it.
   */
  async function refusedAfterPayment(
    game: "mlbb" | "genshin",
    moogold: RouteRefusal,
    ms: number,
  ): Promise<void> {
    await control("elitedias", "rejectOrders");
    if (moogold === "outOfStock") await control("moogold", "rejectOrders");
    if (moogold === "balanceShort") await control("moogold", "setBalance", ["0.00"]);
    try {
      const started = await startHitPayPayment(game);
      if (!started) return;
      const { buyer, orderId, requestId } = started;
      await control("hitpay", "pay", [requestId]);
      await control("hitpay", "awaitWebhooks");
      await pollStatus(buyer, orderId, (s) => SETTLED.includes(s), ms);
    } finally {
      await control("elitedias", "acceptOrders");
      await control("moogold", "acceptOrders");
      await control("moogold", "setBalance", [MOOGOLD_BALANCE]);
    }
  }
  /** The create requests each supplier simulator received under `reference`. */
  const supplierRequests = async (reference: string) => {
    let total = 0;
    for (const target of ["moogold", "elitedias"]) {
      const counts = await control(target, "countsByReference") as {
        reference: string;
        requests: number;
      }[];
      total += counts.find((c) => c.reference === reference)?.requests ?? 0;
    }
    return total;
  };
  /**
   * The end of a seed: waits (bounded) until no job of its consumer orders is due within five
   * seconds, then counts how its paid HitPay orders ended and how long their refunds took.
   */
  const countOutcomes = async (since: Date) => {
    const url = new URL(
      `/__sim/outcomes?since=${encodeURIComponent(since.toISOString())}`,
      world.base,
    );
    const read = async () => {
      figures.requests++;
      const r = await fetch(url);
      if (r.status !== 200) fail(`outcomes answered ${r.status}`);
      return await r.json() as {
        jobsDue: number;
        orders: {
          id: string;
          status: string;
          in_review: boolean;
          review_reason: string | null;
          operator_touched: boolean;
          ended_at: string | null;
          refunded_at: string | null;
          suppliers: number;
          refund_status: string | null;
        }[];
      };
    };
    let outcomes = await read();
    for (const until = Date.now() + 20_000; outcomes.jobsDue > 0 && Date.now() < until;) {
      await new Promise((ok) => setTimeout(ok, 200));
      outcomes = await read();
    }
    for (const order of outcomes.orders) {
      figures.paidConsumerOrders++;
      if (order.status === "successful") figures.paidDelivered++;
      else if (order.status === "refunded") figures.paidRefunded++;
      else if (order.in_review) {
        figures.paidInReview++;
        log(`seed ${seed}: ${order.id} waits in Needs review: ${order.review_reason}`);
        if (order.refund_status === "refused") figures.paidRefundRefused++;
      } else figures.paidUnsettled++;
      if (order.suppliers > 1) figures.paidRerouted++;
      if (order.operator_touched) figures.paidOperatorTouched++;
      else if (SETTLED.includes(order.status)) figures.paidSettledUntouched++;
      if (order.status === "refunded" && order.ended_at && order.refunded_at) {
        figures.refundLatenciesMs.push(
          Math.max(0, Date.parse(order.refunded_at) - Date.parse(order.ended_at)),
        );
      }
    }
  };

  // Set-up: this seed's resellers, each signed in on its own client.
  const unitCents = await (async () => {
    const probe = await call(world.admin, "GET", `/api/admin/games`);
    const pubg = (probe.json as GameDto[]).find((g) => g._id === world.pubgId)!;
    return Math.max(1, Math.round(pubg.gameItems[0].cost * 120));
  })();
  // The world's pool of signed-in resellers (a password hash per account is too slow to make new
  // ones per seed), each brought to this seed's starting balance and markup.
  const resellers: SimReseller[] = [];
  for (const [i, units] of schedule.resellers.entries()) {
    const reseller = world.pool[i] ?? await joinPool(i);
    const balance = await call(reseller.client, "GET", "/api/current_user");
    expect(balance, [200], "reseller balance");
    const change = units * unitCents - Math.round(balance.json.user.balance * 100);
    if (change !== 0) {
      const move = change > 0 ? "balance_topup" : "balance_deduct";
      const amount = centsToDollars(Math.abs(change));
      expect(
        await call(world.admin, "POST", `/api/${move}/reseller/${reseller.id}`, { amount }),
        [200],
        "starting balance",
      );
    }
    if (reseller.markup.pubgm !== DEFAULT_MARKUP) await editMarkup(reseller, DEFAULT_MARKUP);
    reseller.prices = await pricesFor(reseller);
    resellers.push(reseller);
  }
  async function joinPool(i: number): Promise<SimReseller> {
    const email = `sim-${i}-${crypto.randomUUID().slice(0, 8)}@sim.example`;
    const markup = { mlbb: 5, mlbb_global: 5, mlbb_special: 5, pubgm: DEFAULT_MARKUP };
    const created = await call(world.admin, "POST", "/api/reseller", {
      name: email.split("@")[0],
      email,
      password: RESELLER_PASSWORD,
      balance: 0,
      markup,
    });
    expect(created, [201], "create reseller");
    const client = world.client();
    expect(
      await call(client, "POST", "/api/login_reseller", {
        username: email,
        password: RESELLER_PASSWORD,
      }),
      [200],
      "reseller sign-in",
    );
    world.pool[i] = { id: created.json._id, email, client, markup, prices: undefined! };
    return world.pool[i];
  }
  async function editMarkup(r: SimReseller, pubgm: number) {
    r.markup = { ...r.markup, pubgm };
    const edited = await call(world.admin, "PUT", `/api/reseller/${r.id}`, {
      name: r.email.split("@")[0],
      phone: "",
      email: r.email,
      remarks: `markup ${pubgm}`,
      disableDiscounts: false,
      markup: r.markup,
    });
    expect(edited, [200], "admin edit");
    r.prices = await pricesFor(r);
  }
  async function pricesFor(r: SimReseller): Promise<SimReseller["prices"]> {
    const pubg = await call(r.client, "GET", `/api/resellers/game/${world.pubgId}`);
    const ff = await call(r.client, "GET", `/api/resellers/game/${world.freeFire.id}`);
    expect(pubg, [200], "PUBG catalogue");
    expect(ff, [200], "Free Fire catalogue");
    return { pubg: pubg.json.gameItems[0], freefire: ff.json.gameItems[0] };
  }
  let consumerCount = 0;
  const consumerAddress = () => {
    consumerCount++;
    return `10.${(seed >> 8) & 255}.${seed & 255}.${consumerCount}`;
  };

  /** One reseller's part of an order step: its copies of the order, all at once. */
  async function burst(
    step: Extract<SimStep, { kind: "order" }>,
    r: SimReseller,
    n: number,
  ): Promise<void> {
    const item = r.prices[step.game];
    const userid = step.validAccount
      ? (step.game === "pubg" ? "5551234" : "123456789")
      : "invalid-1";
    const order = {
      userid,
      serverid: "",
      denom: item.key,
      userName: "Sim",
      itemName: item.name,
      amount: item.price,
      cost: 0,
    };
    const body = step.game === "pubg"
      ? { game: "PUBG Mobile", supplierGameName: "pubgm", ...order }
      : { game: "Free Fire", productID: world.freeFire.productId, ...order };
    const path = step.game === "pubg" ? "/api/reseller/place_order" : "/api/create_order";
    const key = step.sharedKey ? { "idempotency-key": `sim-${seed}-${stepIndex}-${n}` } : undefined;
    const answers = await Promise.all(
      Array.from({ length: step.copies }, () => call(r.client, "POST", path, body, key)),
    );
    for (const a of answers) {
      expect(a, [201, 403], "order");
      if (a.status === 403 && a.json?.error !== INSUFFICIENT) fail(`403 with ${a.text}`);
    }
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.json.order.id));
    if (step.sharedKey && ids.size > 1) fail(`one Idempotency-Key made ${ids.size} orders`);
    figures.ordersPlaced += ids.size;
    figures.refusedInsufficient += answers.filter((a) => a.status === 403).length;
  }
  const steps: Record<SimStep["kind"], (step: never) => Promise<void>> = {
    order: async (step: Extract<SimStep, { kind: "order" }>) => {
      await Promise.all(step.resellers.map((n) => burst(step, resellers[n], n)));
    },
    topup: async (step: Extract<SimStep, { kind: "topup" }>) => {
      const r = resellers[step.reseller];
      expect(
        await call(world.admin, "POST", `/api/balance_topup/reseller/${r.id}`, {
          amount: centsToDollars(step.units * unitCents),
        }),
        [200],
        "top-up",
      );
    },
    deduct: async (step: Extract<SimStep, { kind: "deduct" }>) => {
      const r = resellers[step.reseller];
      expect(
        await call(world.admin, "POST", `/api/balance_deduct/reseller/${r.id}`, {
          amount: centsToDollars(step.units * unitCents),
        }),
        [200, 409],
        "deduct",
      );
    },
    fault: async (step: Extract<SimStep, { kind: "fault" }>) => {
      figures.faultsInjected += step.count;
      await control(
        step.target,
        "forceNext",
        step.endpoint === null ? [step.fault, step.count] : [step.fault, step.count, step.endpoint],
      );
    },
    slow: async (step: Extract<SimStep, { kind: "slow" }>) => {
      figures.faultsInjected++;
      await control(step.target, "setKnobs", [], { latencyMs: step.latencyMs });
    },
    reject: async (step: Extract<SimStep, { kind: "reject" }>) => {
      figures.faultsInjected++;
      await control(step.target, "rejectOrders");
    },
    recover,
    refresh: async (step: Extract<SimStep, { kind: "refresh" }>) => {
      const client = step.reseller === "admin" ? world.admin : resellers[step.reseller].client;
      expect(
        await call(client, "POST", "/api/reseller/orders/refresh_all_status"),
        [200],
        "refresh",
      );
    },
    edit: (step: Extract<SimStep, { kind: "edit" }>) =>
      editMarkup(resellers[step.reseller], step.markup),
    manual: async (step: Extract<SimStep, { kind: "manual" }>) => {
      const buyer = world.client({ "x-forwarded-for": consumerAddress() });
      const made = await call(
        buyer,
        "POST",
        "/api/payment/manual/mlbb",
        paymentBody(world.consumerItem.denom, world.consumerItem.price),
      );
      expect(made, [201, 400, 409, 502], "manual payment");
      if (made.status !== 201) return;
      figures.consumerOrders++;
      const path = `/api/orders/${made.json.orderID}/confirm-payment`;
      expect(
        await call(world.admin, "POST", path, { cancel: step.cancel }),
        [200],
        "confirm payment",
      );
      if (step.twice) {
        expect(await call(world.admin, "POST", path, { cancel: false }), [409], "confirm again");
      }
    },
    consumer: async (step: Extract<SimStep, { kind: "consumer" }>) => {
      const started = await startHitPayPayment();
      if (!started) return;
      const { buyer, orderId, requestId } = started;
      const { price } = world.consumerItem;
      const fields = (kind: WebhookKind) => {
        const status = kind === "failed" ? "failed" : kind === "pending" ? "pending" : "completed";
        return {
          payment_id: `pay-${orderId}${
            kind === "wrongAmount" ? "-amount" : kind === "otherRequest" ? "-request" : ""
          }`,
          payment_request_id: kind === "otherRequest" ? `forged-${requestId}` : requestId!,
          reference_number: orderId,
          phone: "",
          amount: (kind === "wrongAmount" ? price + 1 : price).toFixed(2),
          currency: "SGD",
          status,
        };
      };
      // Per event key: one answer is fresh (200 not duplicate), every other copy is a duplicate;
      // an event that does not match the order is refused (409) every time it comes, without
      // taking the key; a forged signature is always 401.
      const fresh = new Map<string, number>();
      let paid = false;
      for (const webhook of step.webhooks) {
        const f = fields(webhook.kind);
        let body = signedWebhook(f);
        if (webhook.kind === "forged") {
          body = body.replace(
            /hmac=[0-9a-f]/,
            (m) => m.endsWith("0") ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`,
          );
        }
        const send = () =>
          call(world.client(), "POST", "/api/payment/hitpay/webhook", body, {
            "content-type": "application/x-www-form-urlencoded",
          });
        const answers = webhook.parallel
          ? await Promise.all(Array.from({ length: webhook.copies }, send))
          : await (async () => {
            const out: Answer[] = [];
            for (let i = 0; i < webhook.copies; i++) out.push(await send());
            return out;
          })();
        figures.webhooksSent += answers.length;
        const key = `${f.payment_id}:${f.status}`;
        for (const a of answers) {
          if (webhook.kind === "forged") {
            figures.webhooksForged++;
            expect(a, [401], "forged webhook");
            continue;
          }
          const mismatched = ["wrongAmount", "otherRequest"].includes(webhook.kind);
          expect(a, mismatched ? [409] : [200], `webhook ${webhook.kind}`);
          if (a.status === 409) continue;
          if (a.json.duplicate === false) fresh.set(key, (fresh.get(key) ?? 0) + 1);
          else figures.webhookReplays++;
        }
        if (webhook.kind === "completed") paid = true;
      }
      for (const [key, count] of fresh) {
        if (count !== 1) fail(`webhook ${key} applied ${count} times (no dedupe)`);
      }
      const status = await call(buyer, "GET", `/api/order/${orderId}/status`);
      expect(status, [200], "order status");
      // A failed webhook alone leaves it unpaid in its own state; a completion pays it either way.
      if (paid === [AWAITING_PAYMENT, PAYMENT_FAILED].includes(status.json.status)) {
        fail(`after ${paid ? "a" : "no"} verified payment the order is ${status.json.status}`);
      }
    },
    // HitPay takes the payment but its webhook is held: the result page's polls ask HitPay and
    // the order is paid from HitPay's answer; the webhook sent later is a replay.
    held: async (step: Extract<SimStep, { kind: "held" }>) => {
      const started = await startHitPayPayment();
      if (!started) return;
      const { buyer, orderId, requestId } = started;
      await control("hitpay", "holdWebhooks", [true]);
      try {
        await control("hitpay", "pay", [requestId]);
        let status = AWAITING_PAYMENT;
        for (let poll = 0; poll < 50 && status === AWAITING_PAYMENT; poll++) {
          const r = await call(buyer, "GET", `/api/order/${orderId}/status`);
          expect(r, [200], "order status");
          status = r.json.status;
          if (status === AWAITING_PAYMENT) await new Promise((ok) => setTimeout(ok, 100));
        }
        if (status === AWAITING_PAYMENT) {
          fail(`paid at HitPay, webhook held: ${orderId} never paid`);
        }
        figures.reconciled++;
        if (step.resend) {
          await control("hitpay", "resendWebhook", [requestId]);
          await control("hitpay", "awaitWebhooks");
        }
      } finally {
        await control("hitpay", "holdWebhooks", [false]);
      }
    },
    wait: (step: Extract<SimStep, { kind: "wait" }>) =>
      new Promise((ok) => setTimeout(ok, step.ms)),
    // HitPay's next refunds are refused (its 422, which leaves the order to an operator), held
    // until the client gives up, made with the answer lost, or answered slowly; then a paid order
    // EliteDias refuses meets them with its refund.
    refundFault: async (step: Extract<SimStep, { kind: "refundFault" }>) => {
      figures.faultsInjected++;
      if (step.fault === "slow") {
        await control("hitpay", "setKnobs", [], { latencyMs: step.latencyMs });
      } else await control("hitpay", "forceNext", [step.fault, step.count, "refund"]);
      await refusedAfterPayment("mlbb", "accept", step.fault === "error" ? 2000 : 6000);
    },
    // The shop expires the order (HitPay says its request expired), then the payment the buyer
    // began in time completes: the order is refunded, and never reaches a supplier.
    late: async () => {
      const started = await startHitPayPayment();
      if (!started) return;
      const { buyer, orderId, requestId } = started;
      await control("hitpay", "expire", [requestId]);
      const expired = await pollStatus(buyer, orderId, (s) => s !== AWAITING_PAYMENT, 3000);
      if (expired !== PAYMENT_EXPIRED) fail(`expired at HitPay, the order is ${expired}`);
      await control("hitpay", "payLate", [requestId]);
      await control("hitpay", "awaitWebhooks");
      figures.latePayments++;
      const status = await pollStatus(buyer, orderId, (s) => s === "refunded", 3000);
      if (!["error", "refunded"].includes(status)) fail(`paid too late, the order is ${status}`);
      const sent = await supplierRequests(orderId);
      if (sent) fail(`paid too late, ${orderId} was sent to a supplier ${sent} times`);
    },
    // A consumer pays and EliteDias refuses the item: an item without a next route fails and is
    // refunded; Genshin Impact's goes on to MooGold, which delivers, is out of stock, or whose
    // balance is too short. The refusals end with the step.
    undelivered: async (step: Extract<SimStep, { kind: "undelivered" }>) => {
      figures.faultsInjected++;
      await refusedAfterPayment(step.game, step.moogold, 4000);
    },
  };

  const seedStart = new Date();
  await checkInvariants();
  for (stepIndex = 0; stepIndex < schedule.steps.length; stepIndex++) {
    const step = schedule.steps[stepIndex];
    log(`seed ${seed} step ${stepIndex + 1}: ${JSON.stringify(step)}`);
    await steps[step.kind](step as never);
    figures.steps++;
    await checkInvariants();
  }
  stepIndex = schedule.steps.length - 1;
  await recover();
  await countOutcomes(seedStart);
  await checkInvariants();
  figures.seeds++;
}
