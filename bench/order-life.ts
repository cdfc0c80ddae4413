// The order-placement bench's ceilings: pgbench replaying the statements this checkout sends for a
// reseller order, from the statement log of one order lived on the bench's own database
// (tests/helpers/order-life.ts): its request's session lookup and placement, and, for the whole
// life, the job runner's supplier-create pass and status pass (claims, sending, the move to
// pending, the status check, completion). The supplier calls themselves are not the database's
// work and are not replayed.
//
// Each pgbench transaction replays the statements with its own order: the captured order's id,
// Idempotency-Key, reseller and session become the transaction's (a random order number and key,
// the reseller and session of the client's row in bench_clients), and an id the database handed
// out (the job a claim took, the attempt the read recorded) becomes what the statement that handed
// it out answered this time (pgbench's \aset). Everything else is sent as captured.
import { sql } from "kysely";
import type { TestDatabase } from "../tests/helpers/backends.ts";
import { startTestSuppliers } from "../tests/helpers/suppliers.ts";
import {
  liveOrders,
  type LoggedStatement,
  type OrderLives,
  recordingHandle,
} from "../tests/helpers/order-life.ts";
import { findLiveSessionWithUser } from "../src/db/repositories/sessions.ts";

/** One order's life on the bench's database: its request's session lookup, then its phases. */
export interface CapturedLife extends OrderLives {
  session: LoggedStatement[];
  /** The values each replayed order has its own of. */
  own: { orderId: string; key: string; resellerId: string; idHash: string };
}

/**
 * Lives one order of `email`'s reseller (signed in, with a session) on `tdb`, recording every
 * statement: as the app's request sends them (session lookup, placement) and as a job runner
 * lane of one job at a time sends them (the supplier-create and status passes). No app or worker
 * may be running on the database meanwhile: their runner would take the order's jobs.
 */
export async function captureOrderLife(tdb: TestDatabase, email: string): Promise<CapturedLife> {
  const handle = recordingHandle((listener) => tdb.open(listener));
  const { db } = handle;
  const sim = startTestSuppliers();
  try {
    const reseller = await db.selectFrom("resellers")
      .select(["id", "name", "markup", "disable_discounts"])
      .where("email", "=", email).executeTakeFirstOrThrow();
    const { id_hash: idHash } = await db.selectFrom("sessions").select("id_hash")
      .where("user_id", "=", reseller.id).limit(1).executeTakeFirstOrThrow();
    const game = await db.selectFrom("games").select("game_items")
      .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
    const denom = (game.game_items as { nameSupplier: string }[])[0].nameSupplier;
    const session = await handle.record(() => findLiveSessionWithUser(db, idHash));
    // The one captured is a running app's order: this process has read the game whole already,
    // with an order before it, as an app process does with its first order of a game.
    await liveOrders(handle, sim, reseller, denom, 1, 1);
    const life = await liveOrders(handle, sim, reseller, denom, 1, 1);
    const [order] = life.orders;
    return {
      ...life,
      session,
      own: { orderId: order.id, key: order.key, resellerId: reseller.id, idHash },
    };
  } finally {
    await db.destroy();
    await sim.close();
  }
}

/** A SQL literal of `text`, with any ":name" split so that pgbench does not read a variable. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''").replace(/:(?=[A-Za-z_])/g, ":' || '")}'`;
}

/** A replayed order's expressions for the captured order's own values. */
function ownExpressions(own: CapturedLife["own"]): [string, string][] {
  return [
    [own.orderId, "('P' || :o)"],
    [own.key, ":k"],
    [own.resellerId, ":rid"],
    [own.idHash, ":h"],
  ];
}

/** `text` as an expression, its own values the replayed order's. */
function textExpression(text: string, own: [string, string][]): string {
  let parts: (string | { expr: string })[] = [text];
  for (const [value, expr] of own) {
    parts = parts.flatMap((part) =>
      typeof part === "string"
        ? part.split(value).flatMap((piece, i) => i === 0 ? [piece] : [{ expr }, piece])
        : [part]
    );
  }
  const terms = parts.filter((part) => part !== "").map((part) =>
    typeof part === "string" ? literal(part) : part.expr
  );
  if (terms.length === 0) return "''";
  return terms.length === 1 ? terms[0] : `(${terms.join(" || ")})`;
}

/** The integer ids a statement's last row answered (columns `id` and `…_id`), by value. */
function answeredIds(statement: LoggedStatement): [number, string][] {
  const row = statement.rows?.at(-1) as Record<string, unknown> | undefined;
  return Object.entries(row ?? {}).filter(([column, value]) =>
    (column === "id" || column.endsWith("_id")) && Number.isSafeInteger(value)
  ).map(([column, value]) => [value as number, column]);
}

/**
 * A pgbench script (for `-M prepared`) replaying `statements` once a transaction, each client as
 * the reseller of its row in bench_clients (`sessions` rows, numbered from 0).
 */
export function replayScript(
  life: CapturedLife,
  statements: LoggedStatement[],
  sessions: number,
): string {
  const own = ownExpressions(life.own);
  // Which earlier statement answered an id, as the variable its \aset sets.
  const answered = new Map<number, string>();
  const used = new Map<number, Set<string>>();
  const variableOf = (id: number): string | undefined => {
    const variable = answered.get(id);
    if (!variable) return undefined;
    const [, index, column] = variable.match(/^s(\d+)_(.+)$/)!;
    used.set(Number(index), (used.get(Number(index)) ?? new Set()).add(column));
    return `:${variable}`;
  };
  /** A parameter's value as an expression; `isId`: it is compared with an id column. */
  const expression = (value: unknown, isId: boolean): string => {
    if (value === null || value === undefined) return "NULL";
    if (value instanceof Date) return literal(value.toISOString());
    if (typeof value === "number") return (isId && variableOf(value)) || String(value);
    if (typeof value === "bigint" || typeof value === "boolean") return String(value);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    // An array of ids (a runner marking its jobs done): each one the replay's.
    const ids = text.match(/^\{(\d+(?:,\d+)*)\}$/);
    if (ids) {
      const terms = ids[1].split(",").map((id) => variableOf(Number(id)) ?? literal(id));
      return `('{' || ${terms.join(" || ',' || ")} || '}')`;
    }
    return textExpression(text, own);
  };
  const lines = statements.map((statement, i) => {
    const text = statement.sql.replace(/\s+/g, " ").trim()
      .replace(/'(?:[^']|'')*'/g, (quoted) => literal(quoted.slice(1, -1).replaceAll("''", "'")))
      .replace(
        /\$(\d+)/g,
        (_, n: string, at: number, sent: string) =>
          expression(statement.parameters[Number(n) - 1], /\bid\s*=\s*$/.test(sent.slice(0, at))),
      );
    for (const [id, column] of answeredIds(statement)) answered.set(id, `s${i}_${column}`);
    return text;
  });
  const script = [
    "\\set o random(1, 9000000000000000000)",
    "\\set k random(1, 9000000000000000000)",
    `SELECT id_hash AS h, user_id AS rid FROM bench_clients WHERE n = :client_id % ${sessions} \\gset`,
  ];
  lines.forEach((line, i) => {
    const columns = [...used.get(i) ?? []];
    // A claim that takes nothing sets nothing: the variables start at 0 each transaction.
    for (const column of columns) script.push(`\\set s${i}_${column} 0`);
    script.push(columns.length ? `${line} \\aset s${i}_` : `${line};`);
  });
  return script.join("\n") + "\n";
}

/** Makes `sessions` numbered rows of the database's reseller sessions for the replay's clients. */
export async function numberSessions(tdb: TestDatabase): Promise<void> {
  const db = tdb.open();
  try {
    await sql`CREATE TABLE bench_clients AS SELECT (row_number() OVER ()) - 1 AS n,
      id_hash, user_id FROM sessions WHERE user_type = 'reseller'`.execute(db);
  } finally {
    await db.destroy();
  }
}
