import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, GameRow, GamesTable } from "../schema.ts";
import type { Insertable, Updateable } from "kysely";

export type NewGame = Insertable<GamesTable>;
export type GameUpdate = Updateable<GamesTable>;

/** Changes whenever a game is added, removed or saved (every save bumps its version). */
export async function gamesFingerprint(db: Db): Promise<string> {
  const row = await db.selectFrom("games")
    .select(
      sql<
        string
      >`count(*) || ':' || coalesce(md5(string_agg(id || ':' || version, ',' ORDER BY id)), '')`.as(
        "fingerprint",
      ),
    )
    .executeTakeFirstOrThrow();
  return row.fingerprint;
}

export async function listGameRows(db: Db): Promise<GameRow[]> {
  return await db.selectFrom("games").selectAll().orderBy("priority", "asc").orderBy("name", "asc")
    .execute();
}

export async function findGameRowById(db: Db, id: string): Promise<GameRow | undefined> {
  return await db.selectFrom("games").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findGameRowBySupplierName(
  db: Db,
  supplier: string,
  supplierName: string,
): Promise<GameRow | undefined> {
  return await db.selectFrom("games").selectAll().where("supplier", "=", supplier)
    .where("supplier_name", "=", supplierName).executeTakeFirst();
}

/**
 * How many writes to the games table this process has made: the consumer pages' cache, which asks
 * for the catalogue's version at most once a second, asks again at once after a write here.
 */
let gameWrites = 0;
export function gameWritesInThisProcess(): number {
  return gameWrites;
}

export async function insertGameRow(
  db: Db | Transaction<Database>,
  game: NewGame,
): Promise<GameRow> {
  const row = await db.insertInto("games").values(game).returningAll().executeTakeFirstOrThrow();
  gameWrites++;
  return row;
}

/** The highest priority in use (0 when there are no games). */
export async function maxGamePriority(db: Db | Transaction<Database>): Promise<number> {
  const row = await db.selectFrom("games")
    .select(sql<number>`coalesce(max(priority), 0)::int`.as("p"))
    .executeTakeFirstOrThrow();
  return Number(row.p);
}

/**
 * Saves a whole game if it is still at `version`; returns the new row, or undefined when someone
 * else saved first (optimistic concurrency: two admins editing never silently overwrite).
 */
export async function updateGameRowAtVersion(
  db: Db,
  id: string,
  version: number,
  changes: GameUpdate,
): Promise<GameRow | undefined> {
  const row = await db.updateTable("games")
    .set({ ...changes, version: sql`version + 1`, updated_at: new Date() })
    .where("id", "=", id)
    .where("version", "=", version)
    .returningAll()
    .executeTakeFirst();
  gameWrites++;
  return row;
}

/**
 * Replaces a game's items and packages (price sync) and, when given, its server list (which then
 * also requires a server ID); bumps the version.
 */
export async function updateGameCatalogue(
  db: Db,
  id: string,
  catalogue: { gameItems: unknown[]; packages: unknown[]; servers?: Record<string, string> },
): Promise<void> {
  await db.updateTable("games")
    .set({
      game_items: JSON.stringify(catalogue.gameItems),
      packages: JSON.stringify(catalogue.packages),
      ...(catalogue.servers
        ? { servers: JSON.stringify(catalogue.servers), requires_server_id: true }
        : {}),
      version: sql`version + 1`,
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .execute();
  gameWrites++;
}

export async function deleteGameRow(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom("games").where("id", "=", id).executeTakeFirst();
  gameWrites++;
  return Number(r.numDeletedRows) === 1;
}

/** A launched MooGold game by its product id. */
export async function findGameRowByMoogoldId(
  db: Db,
  productId: string,
): Promise<GameRow | undefined> {
  return await db.selectFrom("games").selectAll().where("supplier", "=", "monkey")
    .where("supplier_game_id", "=", productId).executeTakeFirst();
}

/** How many supplier games are launched (spec §3: a launch gets priority count + 1). */
export async function countLaunchedGames(db: Db | Transaction<Database>): Promise<number> {
  const row = await db.selectFrom("games").select(sql<number>`count(*)::int`.as("n"))
    .where("supplier", "in", ["monkey", "elephant"]).executeTakeFirstOrThrow();
  return Number(row.n);
}
