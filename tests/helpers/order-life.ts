// Reseller orders' lives as the app lives them, with every statement they cost: placing them (the
// domain call behind POST /api/reseller/place_order, after its session lookup), the job runner's
// supplier-create pass that sends them to EliteDias, and the status pass that finds them delivered.
// tests/db/order-statements_test.ts counts these statements; the order-placement bench replays
// them with pgbench.
import type { Db } from "../../src/db/client.ts";
import type { StatementListener } from "../../src/db/statement-log.ts";
import {
  type OrderingReseller,
  placeResellerOrder,
  SUPPLIER_CREATE_JOB,
  SUPPLIER_STATUS_JOB,
} from "../../src/domain/orders/place.ts";
import { orderJobHandlers } from "../../src/domain/orders/jobs.ts";
import { createJobRunner } from "../../src/domain/jobs.ts";
import { startTestSuppliers } from "./suppliers.ts";
import { launchPubgMobile, pubgOrderInput } from "./orders.ts";
import { createTestDatabase } from "./backends.ts";
import { createTestReseller } from "./resellers.ts";

/** A statement as a handle sent it, and the rows it answered. */
export interface LoggedStatement {
  sql: string;
  parameters: readonly unknown[];
  rows?: readonly unknown[];
}

/** A handle that keeps the statements it sends while `record` runs (BEGIN and COMMIT too). */
export function recordingHandle(open: (listener: StatementListener) => Db) {
  let log: LoggedStatement[] | undefined;
  const db = open((sql, parameters) => {
    if (!log) return;
    const statement: LoggedStatement = { sql, parameters };
    log.push(statement);
    return (rows) => statement.rows = rows;
  });
  return {
    db,
    async record(work: () => Promise<unknown>): Promise<LoggedStatement[]> {
      log = [];
      try {
        await work();
        return log;
      } finally {
        log = undefined;
      }
    },
  };
}

/** Each phase's statements of the orders' lives. */
export interface OrderLives {
  placement: LoggedStatement[];
  create: LoggedStatement[];
  check: LoggedStatement[];
  /** The orders placed, with their Idempotency-Keys. */
  orders: { id: string; key: string }[];
}

/**
 * `n` orders of PUBG Mobile's `denom` placed at once by `reseller`, or by several (order i by
 * reseller i modulo their number), as the portal's route places them: the reseller as its session
 * read it, an Idempotency-Key each. Then one pass of the
 * supplier-create lane (a job runner with `concurrency` jobs of a kind at once) and, once
 * EliteDias delivered them and their status checks are due, one pass of the status lane; the
 * statements of each phase. Throws unless every order ends successful.
 */
export async function liveOrders(
  handle: ReturnType<typeof recordingHandle>,
  sim: ReturnType<typeof startTestSuppliers>,
  reseller: OrderingReseller | OrderingReseller[],
  denom: string,
  n: number,
  concurrency?: number,
): Promise<OrderLives> {
  const resellers = [reseller].flat();
  const { db, record } = handle;
  const runner = createJobRunner(db, orderJobHandlers(db, () => sim.suppliers), {
    worker: "order-life",
    concurrency,
  });
  const orders: { id: string; key: string }[] = [];
  const placement = await record(() =>
    Promise.all(Array.from({ length: n }, async (_, i) => {
      const key = crypto.randomUUID();
      const by = resellers[i % resellers.length];
      const placed = await placeResellerOrder(
        { db, suppliers: sim.suppliers },
        { ...pubgOrderInput(by.id, denom), knownReseller: by },
        key,
      );
      orders.push({ id: placed.body.order.id, key });
    }))
  );
  // The runner's pass after the placements' kick of the supplier-create lane.
  const create = await record(() => runner.runOnce(SUPPLIER_CREATE_JOB));
  // EliteDias delivers; the status checks, queued a few seconds ahead, are made due now.
  for (const o of sim.elitedias.listOrders()) sim.elitedias.completeOrder(o.orderId);
  await db.updateTable("jobs").set({ run_at: new Date() })
    .where("kind", "=", SUPPLIER_STATUS_JOB).where("done_at", "is", null).execute();
  const check = await record(() => runner.runOnce(SUPPLIER_STATUS_JOB));
  const open = await db.selectFrom("orders").select("id")
    .where("id", "in", orders.map((o) => o.id)).where("status", "!=", "successful").execute();
  if (open.length) throw new Error(`orders not delivered: ${open.map((o) => o.id).join(", ")}`);
  return { placement, create, check, orders };
}

/** What `withOrderLives` gives its work: the recording handle, the suppliers, what to order. */
export interface OrderLivesSetup {
  handle: ReturnType<typeof recordingHandle>;
  db: Db;
  sim: ReturnType<typeof startTestSuppliers>;
  /** PUBG Mobile's first denomination. */
  denom: string;
  /** The reseller as the portal's route passes it: read with its session. */
  ordering: OrderingReseller;
}

/**
 * A fresh database with PUBG Mobile launched and one reseller named `name` holding
 * `balanceCents`, a recording handle on it and the test suppliers, for `work`; all closed after.
 */
export async function withOrderLives(
  name: string,
  balanceCents: number,
  work: (setup: OrderLivesSetup) => Promise<void>,
): Promise<void> {
  const tdb = await createTestDatabase();
  const sim = startTestSuppliers();
  const handle = recordingHandle((listener) => tdb.open(listener));
  const { db } = handle;
  try {
    await launchPubgMobile(db, sim.suppliers);
    const reseller = await createTestReseller(db, {
      name,
      email: `${name.toLowerCase()}@test.example`,
      password: "long enough password",
      balanceCents,
      markup: {},
    });
    const game = await db.selectFrom("games").select("game_items")
      .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
    const denom = (game.game_items as { nameSupplier: string }[])[0].nameSupplier;
    const ordering = { id: reseller._id, name, markup: {}, disable_discounts: false };
    await work({ handle, db, sim, denom, ordering });
  } finally {
    await db.destroy();
    await sim.close();
    await tdb.drop();
  }
}
