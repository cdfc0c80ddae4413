import { sql } from "kysely";
import type { Db } from "../client.ts";
import { coalescePerHandle } from "../coalesce.ts";
import type { GameRow, NewOrder, OrderSnapshot } from "../schema.ts";
import { conditionalDebit } from "./ledger.ts";
import type { NewJob } from "./jobs.ts";

/** How an order names its game: EliteDias by game code, MooGold by product id. */
export type OrderedGame =
  | { supplier: "elephant"; supplierName: string }
  | { supplier: "monkey"; productId: string };

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
 * Placements' reads, one statement: for each, the ordered game and, with an Idempotency-Key, what
 * the key holds, so a repeat is answered as it first was before any check or supplier call. One
 * answer per read, in order.
 */
export async function findGamesAndKeptAnswers(
  db: Db,
  reads: GameAndKeyRead[],
): Promise<GameAndKeptAnswer[]> {
  const input = reads.map((read, n) => ({
    n,
    supplier: read.game.supplier,
    supplier_name: read.game.supplier === "elephant" ? read.game.supplierName : null,
    product_id: read.game.supplier === "monkey" ? read.game.productId : null,
    scope: read.key?.scope ?? null,
    key: read.key?.key ?? null,
  }));
  // Without a game, its columns come back null.
  const { rows } = await sql<
    Omit<GameRow, "id"> & {
      read_n: number;
      id: string | null;
      kept_fingerprint: string | null;
      kept_status: number | null;
      kept_text: string | null;
    }
  >`
    SELECT i.n AS read_n, g.*, k.fingerprint AS kept_fingerprint,
      k.response_status AS kept_status, k.response_body AS kept_text
    FROM jsonb_to_recordset(${JSON.stringify(input)}::text::jsonb)
        AS i(n int, supplier text, supplier_name text, product_id text, scope text, key text)
      LEFT JOIN games g ON g.supplier = i.supplier
        AND (g.supplier_name = i.supplier_name OR g.supplier_game_id = i.product_id)
      LEFT JOIN idempotency_keys k ON k.scope = i.scope AND k.key = i.key`.execute(db);
  const answers: GameAndKeptAnswer[] = reads.map(() => ({}));
  for (const { read_n, kept_fingerprint, kept_status, kept_text, ...row } of rows) {
    if (answers[read_n].game || answers[read_n].kept) continue;
    answers[read_n] = {
      game: row.id === null ? undefined : { ...row, id: row.id },
      kept: kept_fingerprint === null
        ? undefined
        : { fingerprint: kept_fingerprint, status: kept_status, text: kept_text },
    };
  }
  return answers;
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
 * Places an order in one statement, so one round trip and one implicit transaction: the
 * conditional debit and, only if it debited, the order, its 'order_placed' history row, the job
 * that sends it to the supplier and, with a claim, the Idempotency-Key holding the answer. The
 * answer's text is made here once, from the debit's balances and moment (milliseconds, as the
 * order keeps them), and is what the first request sends and every repeat reads back.
 *
 * Nothing is written when the balance is short or the reseller deleted, or when the key was
 * claimed meanwhile: two requests with one key meet on the reseller's row, the second waits for
 * the first to commit, debits too, and then its claim hits the first's key, which fails the whole
 * statement.
 */
export async function placeOrderStatement(db: Db, p: OrderPlacement): Promise<PlacementOutcome> {
  const json = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;
  const dollars = (cents: string) => sql`trim_scale(${sql.ref(cents)} / 100.0)::text`;
  const { holes } = p.answer;
  const columns = Object.keys(p.order);
  const claim = p.claim
    ? sql`, claim AS (
        INSERT INTO idempotency_keys (scope, key, fingerprint, response_status, response_body)
        SELECT ${p.claim.scope}::text, ${p.claim.key}::text, ${p.claim.fingerprint}::text,
          ${p.claim.status}::int, text
        FROM answer
      )`
    : sql``;
  try {
    const { rows } = await sql<{ answer: string | null }>`
      WITH debit AS (
        ${conditionalDebit(p.resellerId, p.cents)}
        RETURNING balance_cents + ${p.cents}::bigint AS old_cents, balance_cents AS new_cents,
          date_trunc('milliseconds', now()) AS at
      ), moment AS (
        SELECT *, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date
        FROM debit
      ), answer AS (
        SELECT replace(replace(replace(${p.answer.text}::text,
          ${holes.date}::text, date),
          ${holes.oldBalance}::text, ${dollars("old_cents")}),
          ${holes.newBalance}::text, ${dollars("new_cents")}) AS text
        FROM moment
      ), history AS (
        INSERT INTO balance_history (reseller_id, type, old_cents, new_cents, order_id,
          order_snapshot, actor)
        SELECT ${p.resellerId}::uuid, 'order_placed', old_cents, new_cents, ${p.order.id}::text,
          ${json(p.history.snapshot)} || jsonb_build_object('date', date), ${p.history.actor}::text
        FROM moment
      ), job AS (
        INSERT INTO jobs (kind, payload, run_at, request_id)
        SELECT ${p.job.kind}::text, ${json(p.job.payload)}, at, ${p.job.requestId ?? null}::text
        FROM debit
      )${claim}, placed AS (
        INSERT INTO orders (${sql.join(columns.map((c) => sql.ref(c)))},
          old_balance_cents, new_balance_cents, created_at, updated_at)
        SELECT ${sql.join(columns.map((c) => sql.ref(`r.${c}`)))}, old_cents, new_cents, at, at
        FROM debit, jsonb_populate_record(NULL::orders, ${json(p.order)}) AS r
      )
      SELECT (SELECT text FROM answer) AS answer`.execute(db);
    const answer = rows[0].answer;
    return answer === null ? { kind: "not placed" } : { kind: "placed", answer };
  } catch (error) {
    if (p.claim && isKeyTaken(error)) return { kind: "not placed" };
    throw error;
  }
}
