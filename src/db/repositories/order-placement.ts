import { sql } from "kysely";
import type { Db } from "../client.ts";
import { anyOfList, coalescePerHandle } from "../coalesce.ts";
import type { GameRow, NewOrder, OrderSnapshot } from "../schema.ts";
import { conditionalDebit, conditionalDebitEach } from "./ledger.ts";
import type { NewJob } from "./jobs.ts";

/** How an order names its game: EliteDias by game code, MooGold by product id. */
export interface OrderedGame {
  supplier: string;
  /** The game's code at its supplier, for a supplier that names games by code. */
  supplierName: string | null;
  /** The game's product id at its supplier, for a supplier that names games by id. */
  productId: string | null;
}

/** What an Idempotency-Key holds: the first request's fingerprint and its answer's text. */
export interface KeptAnswer {
  fingerprint: string;
  status: number | null;
  text: string | null;
}

/** A placement's read: the game it orders and, with an Idempotency-Key, the key. */
export interface GameAndKeyRead {
  game: OrderedGame;
  key?: { scope: string; key: string };
}

/** The ordered game (undefined when none) and what the key holds (undefined when unused). */
export interface GameAndKeptAnswer {
  game?: GameRow;
  kept?: KeptAnswer;
}

/**
 * Games as this process last read them, per database handle, by id, each with the row version it
 * was read at (`xmin`: every update of the row makes a new one, whoever makes it: an admin's save,
 * a price sync, an operator's SQL). Bounded by the games there are; cleared past GAMES_KEPT (games
 * deleted meanwhile). Placements share the kept rows: they read them and never change them.
 */
const gamesRead = new WeakMap<Db, Map<string, { rowVersion: string; game: GameRow }>>();

const GAMES_KEPT = 1000;

/**
 * The games at the row versions a placement's read found, from `gamesRead` or, for those that
 * changed since (or are not read here yet), read whole in one statement. A game deleted meanwhile
 * is missing; one saved again meanwhile comes at its newer version, as a later read would give it.
 */
async function gamesAt(
  db: Db,
  found: { id: string; rowVersion: string }[],
): Promise<Map<string, GameRow>> {
  let kept = gamesRead.get(db);
  if (!kept) gamesRead.set(db, kept = new Map());
  const changed = [
    ...new Set(found.filter((f) => kept.get(f.id)?.rowVersion !== f.rowVersion).map((f) => f.id)),
  ];
  if (changed.length) {
    const { rows } = await sql<GameRow & { row_version: string }>`
      SELECT g.*, g.xmin::text AS row_version FROM games g
      WHERE g.id = ${anyOfList(changed, "uuid")}`
      .execute(db);
    if (kept.size + rows.length > GAMES_KEPT) kept.clear();
    for (const { row_version, ...game } of rows) {
      kept.set(game.id, { rowVersion: row_version, game });
    }
  }
  return new Map(found.flatMap((f) => {
    const game = kept.get(f.id)?.game;
    return game ? [[f.id, game]] : [];
  }));
}

/**
 * Placements' reads, one statement: for each, the ordered game's id and row version and, with an
 * Idempotency-Key, what the key holds, so a repeat is answered as it first was before any check or
 * supplier call. The games themselves (items, packages, markups: kilobytes each) come from
 * `gamesAt`, read again only when they changed. One answer per read, in order.
 */
export async function findGamesAndKeptAnswers(
  db: Db,
  reads: GameAndKeyRead[],
): Promise<GameAndKeptAnswer[]> {
  const input = reads.map((read, n) => ({
    n,
    supplier: read.game.supplier,
    supplier_name: read.game.supplierName,
    product_id: read.game.productId,
    scope: read.key?.scope ?? null,
    key: read.key?.key ?? null,
  }));
  const keyed = reads.filter((read) => read.key);
  // Without a game, its columns come back null. The keys are also given as arrays (`= ANY`),
  // which the planner reads by the key's index, where the join alone had it scan the table.
  const { rows } = await sql<{
    read_n: number;
    game_id: string | null;
    game_row_version: string | null;
    kept_fingerprint: string | null;
    kept_status: number | null;
    kept_text: string | null;
  }>`
    SELECT i.n AS read_n, g.id AS game_id, g.xmin::text AS game_row_version,
      k.fingerprint AS kept_fingerprint, k.response_status AS kept_status,
      k.response_body AS kept_text
    FROM jsonb_to_recordset(${JSON.stringify(input)}::text::jsonb)
        AS i(n int, supplier text, supplier_name text, product_id text, scope text, key text)
      LEFT JOIN games g ON g.supplier = i.supplier
        AND (g.supplier_name = i.supplier_name OR g.supplier_game_id = i.product_id)
      LEFT JOIN idempotency_keys k ON k.scope = i.scope AND k.key = i.key
        AND k.scope = ${anyOfList(keyed.map((read) => read.key!.scope))}
        AND k.key = ${anyOfList(keyed.map((read) => read.key!.key))}`.execute(db);
  const firsts = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if (!firsts.has(row.read_n)) firsts.set(row.read_n, row);
  const games = await gamesAt(
    db,
    [...firsts.values()].flatMap((row) =>
      row.game_id === null ? [] : [{ id: row.game_id, rowVersion: row.game_row_version! }]
    ),
  );
  return reads.map((_, n) => {
    const row = firsts.get(n);
    if (!row) return {};
    return {
      game: row.game_id === null ? undefined : games.get(row.game_id),
      kept: row.kept_fingerprint === null ? undefined : {
        fingerprint: row.kept_fingerprint,
        status: row.kept_status,
        text: row.kept_text,
      },
    };
  });
}

/**
 * `findGamesAndKeptAnswers` for one placement, in one statement with the placements' reads of the
 * same turn (requests that arrived together; the same key twice is read twice, as it would be
 * one after the other).
 */
export const findGameAndKeptAnswer: (db: Db, read: GameAndKeyRead) => Promise<GameAndKeptAnswer> =
  coalescePerHandle(() => "", undefined, findGamesAndKeptAnswers);

/**
 * An answer's text with holes only the debit can fill: `holes.date` stands inside a JSON string
 * for the moment, as toISOString writes it; `holes.oldBalance` and `holes.newBalance` stand for the
 * balances as JSON numbers of dollars, as centsToDollars gives them (110 cents → 1.1).
 */
export interface AnswerTemplate {
  text: string;
  holes: { date: string; oldBalance: string; newBalance: string };
}

/** What placing an order writes; the statement fills in the balances and the moment. */
export interface OrderPlacement {
  resellerId: string;
  cents: number;
  order: Omit<NewOrder, "old_balance_cents" | "new_balance_cents" | "created_at" | "updated_at">;
  /** The 'order_placed' history row's actor and its order snapshot (the date filled in). */
  history: { actor: string; snapshot: Omit<OrderSnapshot, "date"> };
  /** The job that sends the order to its supplier, due at once. */
  job: Omit<NewJob, "runAt">;
  answer: AnswerTemplate;
  /** With an Idempotency-Key: its claim, which keeps the answer for repeats. */
  claim?: { scope: string; key: string; fingerprint: string; status: number };
}

/** An answer's filled text, or nothing written (see placeOrderStatement). */
export type PlacementOutcome = { kind: "placed"; answer: string } | { kind: "not placed" };

/** The primary key a second request with a claimed Idempotency-Key runs into. */
const KEY_CONSTRAINT = "idempotency_keys_pk";

function isKeyTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
  return e?.code === "23505" &&
    (e.constraint_name === KEY_CONSTRAINT || e.constraint === KEY_CONSTRAINT);
}

/**
 * Places orders in one statement, so one round trip, one implicit transaction and one commit for
 * them all: each reseller's conditional debit of its orders' sum and, for each reseller it
 * debited, each order, its 'order_placed' history row, the job that sends it to the supplier and,
 * with a claim, the Idempotency-Key holding its answer. A reseller's orders take its balance one
 * after the other in the order given, each with its own balances before and after; the answers'
 * texts are made here once, from those balances and the debit's moment (milliseconds, as the
 * order keeps them), and are what the first request sends and every repeat reads back. One
 * outcome per placement, in order.
 *
 * Nothing of a reseller's is written when its balance is short of its sum or it was deleted:
 * each of its orders is then placed alone, one after the other in the order given, so each gets
 * the outcome it would have had on its own (the balance is taken in turn until it is short).
 * Nothing at all is written when a key was claimed meanwhile: two requests with one key meet on
 * the reseller's row, the second waits for the first to commit, debits too, and then its claim
 * hits the first's key, which fails the whole statement. Each reseller's orders are then placed
 * in a statement of their own, so a claimed key refuses only its own placement.
 */
export async function placeOrderStatements(
  db: Db,
  placements: OrderPlacement[],
): Promise<PlacementOutcome[]> {
  const byReseller = Map.groupBy(placements.keys(), (n) => placements[n].resellerId);
  let answers: (string | undefined)[] | undefined;
  try {
    answers = await placeTogether(db, placements, byReseller.size);
  } catch (error) {
    if (!placements.some((p) => p.claim) || !isKeyTaken(error)) throw error;
  }
  const outcomes: PlacementOutcome[] = [];
  await Promise.all([...byReseller.values()].map(async (ns) => {
    let own: PlacementOutcome[];
    if (answers && ns.every((n) => answers[n] !== undefined)) {
      own = ns.map((n) => ({ kind: "placed", answer: answers[n]! }));
    } else if (!answers && byReseller.size > 1) {
      own = await placeOrderStatements(db, ns.map((n) => placements[n]));
    } else if (ns.length === 1) {
      own = [{ kind: "not placed" }];
    } else {
      own = await placeOneByOne(db, ns.map((n) => placements[n]));
    }
    ns.forEach((n, i) => outcomes[n] = own[i]);
  }));
  return outcomes;
}

async function placeOneByOne(db: Db, placements: OrderPlacement[]): Promise<PlacementOutcome[]> {
  const outcomes: PlacementOutcome[] = [];
  for (const placement of placements) {
    outcomes.push(...await placeOrderStatements(db, [placement]));
  }
  return outcomes;
}

/**
 * The placements' answers: each debited reseller's orders have theirs, the others' are undefined.
 * With one reseller the debit is its plain conditional debit; with several, rows are locked in
 * id order (conditionalDebitEach).
 */
async function placeTogether(
  db: Db,
  placements: OrderPlacement[],
  resellers: number,
): Promise<(string | undefined)[]> {
  const input = placements.map((p, n) => ({
    n,
    reseller_id: p.resellerId,
    cents: p.cents,
    order: p.order,
    snapshot: p.history.snapshot,
    actor: p.history.actor,
    job_kind: p.job.kind,
    job_payload: p.job.payload,
    request_id: p.job.requestId ?? null,
    answer: p.answer.text,
    hole_date: p.answer.holes.date,
    hole_old: p.answer.holes.oldBalance,
    hole_new: p.answer.holes.newBalance,
    claim_scope: p.claim?.scope ?? null,
    claim_key: p.claim?.key ?? null,
    claim_fingerprint: p.claim?.fingerprint ?? null,
    claim_status: p.claim?.status ?? null,
  }));
  const dollars = (cents: string) => sql`trim_scale(${sql.ref(cents)} / 100.0)::text`;
  const columns = Object.keys(placements[0].order);
  const at = sql`date_trunc('milliseconds', now()) AS at`;
  const debit = resellers === 1
    ? sql`debit AS (
      ${conditionalDebit(placements[0].resellerId, sql`(SELECT cents FROM total)`)}
      RETURNING id AS reseller_id, balance_cents + (SELECT cents FROM total) AS start_cents, ${at}
    )`
    : conditionalDebitEach(
      "total",
      sql`RETURNING r.id AS reseller_id, r.balance_cents + t.cents AS start_cents, ${at}`,
    );
  // Each order's balances: its reseller's before the statement less that reseller's orders before
  // it (its own too, after).
  const { rows } = await sql<{ n: number; answer: string }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::text::jsonb) AS i(
        n int, reseller_id uuid, cents bigint, "order" jsonb, snapshot jsonb, actor text,
        job_kind text, job_payload jsonb, request_id text, answer text, hole_date text,
        hole_old text, hole_new text, claim_scope text, claim_key text, claim_fingerprint text,
        claim_status int)
    ), total AS (
      SELECT reseller_id, sum(cents)::bigint AS cents FROM input GROUP BY reseller_id
    ), ${debit}, moment AS (
      SELECT i.*, d.at, to_char(d.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date,
        (d.start_cents - sum(i.cents) OVER w + i.cents)::bigint AS old_cents,
        (d.start_cents - sum(i.cents) OVER w)::bigint AS new_cents
      FROM input i JOIN debit d USING (reseller_id)
      WINDOW w AS (PARTITION BY i.reseller_id ORDER BY i.n)
    ), answer AS (
      SELECT n, claim_scope, claim_key, claim_fingerprint, claim_status,
        replace(replace(replace(answer, hole_date, date), hole_old, ${dollars("old_cents")}),
          hole_new, ${dollars("new_cents")}) AS text
      FROM moment
    ), history AS (
      INSERT INTO balance_history (reseller_id, type, old_cents, new_cents, order_id,
        order_snapshot, actor)
      SELECT reseller_id, 'order_placed', old_cents, new_cents, "order"->>'id',
        snapshot || jsonb_build_object('date', date), actor
      FROM moment ORDER BY n
    ), job AS (
      INSERT INTO jobs (kind, payload, run_at, request_id)
      SELECT job_kind, job_payload, at, request_id FROM moment ORDER BY n
    ), claim AS (
      INSERT INTO idempotency_keys (scope, key, fingerprint, response_status, response_body)
      SELECT claim_scope, claim_key, claim_fingerprint, claim_status, text
      FROM answer WHERE claim_key IS NOT NULL
    ), placed AS (
      INSERT INTO orders (${sql.join(columns.map((c) => sql.ref(c)))},
        old_balance_cents, new_balance_cents, created_at, updated_at)
      SELECT ${sql.join(columns.map((c) => sql.ref(`r.${c}`)))}, old_cents, new_cents, at, at
      FROM moment m, jsonb_populate_record(NULL::orders, m."order") AS r ORDER BY m.n
    )
    SELECT n, text AS answer FROM answer`.execute(db);
  const answers: (string | undefined)[] = placements.map(() => undefined);
  for (const row of rows) answers[row.n] = row.answer;
  return answers;
}

/**
 * `placeOrderStatements` for one order, in one statement with the placements of the same turn
 * (requests that arrived together, of any resellers; a key twice goes into the next statement,
 * which runs once this one is done, as one request after the other would).
 */
export const placeOrderStatement: (db: Db, placement: OrderPlacement) => Promise<PlacementOutcome> =
  coalescePerHandle(
    () => "",
    (p) => p.claim ? `key ${p.claim.scope}\n${p.claim.key}` : `order ${p.order.id}`,
    placeOrderStatements,
  );
