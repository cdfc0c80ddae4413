import { type Kysely, sql } from "kysely";

// A second supplier per item. Frozen once landed.
// - item_routes: an item's further routes (its own supplier is always the first, and is not
//   stored), in priority order: the supplier, how that supplier knows the game (its code or its
//   product id), its key of the item and its cost as it stated it. One route per supplier.
// - orders.route_item_key: the item's key in its game (its own supplier's key) once the order
//   left its first route, whose denom it no longer carries; null until then.
// - orders.supplier_game_id: the product id the order's route names its game by, for a supplier
//   that orders by product id; null where the game's own one applies.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("item_routes")
    .addColumn("game_id", "uuid", (c) => c.notNull().references("games.id").onDelete("cascade"))
    .addColumn("item_key", "text", (c) => c.notNull())
    .addColumn("priority", "integer", (c) => c.notNull())
    .addColumn("supplier", "text", (c) => c.notNull())
    .addColumn("supplier_game", "text", (c) => c.notNull())
    .addColumn("supplier_item", "text", (c) => c.notNull())
    .addColumn("cost", "numeric", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("item_routes_pkey", ["game_id", "item_key", "priority"])
    .addUniqueConstraint("item_routes_supplier", ["game_id", "item_key", "supplier"])
    .execute();
  await sql`ALTER TABLE orders ADD COLUMN route_item_key text, ADD COLUMN supplier_game_id text`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE orders DROP COLUMN route_item_key, DROP COLUMN supplier_game_id`
    .execute(db);
  await db.schema.dropTable("item_routes").execute();
}
