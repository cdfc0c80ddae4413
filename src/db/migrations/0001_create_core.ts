import { type Kysely, sql } from "kysely";

// Frozen once landed: later changes go in new migrations.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("admins")
    .addColumn(
      "id",
      "uuid",
      (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("given_name", "text")
    .addColumn("family_name", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("rank", "text", (c) => c.notNull())
    .addColumn("remarks", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("totp_secret_enc", "text")
    .addColumn("totp_confirmed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("totp_last_step", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text", (c) => c.notNull().defaultTo(""))
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn(
      "updated_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addCheckConstraint("admins_email_lowercase", sql`email = lower(email)`)
    .execute();
  await sql`CREATE UNIQUE INDEX admins_email_key ON admins (email)`.execute(db);

  await db.schema
    .createTable("resellers")
    .addColumn(
      "id",
      "uuid",
      (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("balance_cents", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn(
      "markup",
      "jsonb",
      (c) => c.notNull().defaultTo(sql`'{}'::jsonb`),
    )
    .addColumn("remarks", "text", (c) => c.notNull().defaultTo(""))
    .addColumn(
      "disable_discounts",
      "boolean",
      (c) => c.notNull().defaultTo(false),
    )
    .addColumn("rank", "text", (c) => c.notNull().defaultTo("Reseller"))
    .addColumn("two_fa_enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("totp_secret_enc", "text")
    .addColumn("totp_confirmed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("totp_last_step", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text", (c) => c.notNull().defaultTo(""))
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn(
      "updated_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("deleted_at", "timestamptz")
    .addCheckConstraint(
      "resellers_balance_not_negative",
      sql`balance_cents >= 0`,
    )
    .addCheckConstraint("resellers_email_lowercase", sql`email = lower(email)`)
    .execute();
  await sql`CREATE UNIQUE INDEX resellers_email_key ON resellers (email) WHERE deleted_at IS NULL`
    .execute(db);
  await sql`CREATE UNIQUE INDEX resellers_name_key ON resellers (lower(name)) WHERE deleted_at IS NULL`
    .execute(db);

  await db.schema
    .createTable("balance_history")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn(
      "reseller_id",
      "uuid",
      (c) => c.notNull().references("resellers.id"),
    )
    .addColumn("at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("old_cents", "bigint", (c) => c.notNull())
    .addColumn("new_cents", "bigint", (c) => c.notNull())
    .addColumn("order_id", "text")
    .addColumn("order_snapshot", "jsonb")
    .addColumn("actor", "text", (c) => c.notNull().defaultTo(""))
    .addCheckConstraint(
      "balance_history_type",
      sql`type IN ('initial', 'order_placed', 'order_refunded', 'top_up', 'deduct')`,
    )
    .addCheckConstraint(
      "balance_history_not_negative",
      sql`old_cents >= 0 AND new_cents >= 0`,
    )
    .addCheckConstraint(
      "balance_history_direction",
      sql`(type = 'initial' AND old_cents = 0)
        OR (type IN ('top_up', 'order_refunded') AND new_cents > old_cents)
        OR (type IN ('deduct', 'order_placed') AND new_cents < old_cents)`,
    )
    .execute();
  await sql`CREATE INDEX balance_history_reseller_at ON balance_history (reseller_id, id DESC)`
    .execute(db);
  await sql`CREATE UNIQUE INDEX balance_history_one_initial ON balance_history (reseller_id) WHERE type = 'initial'`
    .execute(db);
  await sql`CREATE UNIQUE INDEX balance_history_one_placed ON balance_history (order_id) WHERE type = 'order_placed'`
    .execute(db);
  await sql`CREATE UNIQUE INDEX balance_history_one_refund ON balance_history (order_id) WHERE type = 'order_refunded'`
    .execute(db);

  await db.schema
    .createTable("consumers")
    .addColumn(
      "id",
      "uuid",
      (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("deleted_at", "timestamptz")
    .execute();
  await sql`CREATE INDEX consumers_email ON consumers (lower(email))`.execute(
    db,
  );

  await db.schema
    .createTable("games")
    .addColumn(
      "id",
      "uuid",
      (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("supplier_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("supplier", "text", (c) => c.notNull().defaultTo("others"))
    .addColumn("supplier_game_id", "text")
    .addColumn("supplier_notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("has_packages", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_hidden", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn(
      "is_out_of_stock",
      "boolean",
      (c) => c.notNull().defaultTo(false),
    )
    .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("tagline", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("game_image", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("about_this_game", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("faq", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn(
      "platforms",
      "jsonb",
      (c) => c.notNull().defaultTo(sql`'[]'::jsonb`),
    )
    .addColumn(
      "requires_server_id",
      "boolean",
      (c) => c.notNull().defaultTo(false),
    )
    .addColumn(
      "requires_character_name",
      "boolean",
      (c) => c.notNull().defaultTo(false),
    )
    .addColumn("instructional_image", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("game_currency", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("consumer_markup", "numeric", (c) => c.notNull().defaultTo(0))
    .addColumn(
      "reseller_markup",
      "jsonb",
      (c) => c.notNull().defaultTo(sql`'{}'::jsonb`),
    )
    .addColumn(
      "reseller_markup_all",
      "numeric",
      (c) => c.notNull().defaultTo(0),
    )
    .addColumn(
      "markup_for_individual_resellers",
      "boolean",
      (c) => c.notNull().defaultTo(false),
    )
    .addColumn(
      "servers",
      "jsonb",
      (c) => c.notNull().defaultTo(sql`'{}'::jsonb`),
    )
    .addColumn("redemption_codes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn(
      "game_items",
      "jsonb",
      (c) => c.notNull().defaultTo(sql`'[]'::jsonb`),
    )
    .addColumn(
      "packages",
      "jsonb",
      (c) => c.notNull().defaultTo(sql`'[]'::jsonb`),
    )
    .addColumn("links", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn(
      "official_website_link",
      "text",
      (c) => c.notNull().defaultTo(""),
    )
    .addColumn("fandom_link", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("reddit_link", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn(
      "updated_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .execute();
  await sql`CREATE UNIQUE INDEX games_supplier_game ON games (supplier, supplier_name) WHERE supplier <> 'others'`
    .execute(db);

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("buyer_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reseller_id", "uuid", (c) => c.references("resellers.id"))
    .addColumn("reseller_name", "text")
    .addColumn("old_balance_cents", "bigint")
    .addColumn("new_balance_cents", "bigint")
    .addColumn("consumer_id", "uuid", (c) => c.references("consumers.id"))
    .addColumn("consumer_name", "text")
    .addColumn("consumer_email", "text")
    .addColumn("consumer_phone", "text")
    .addColumn("game_id", "uuid", (c) => c.references("games.id"))
    .addColumn("game", "text", (c) => c.notNull())
    .addColumn("package", "text")
    .addColumn("package_ed_name", "text")
    .addColumn("item", "text", (c) => c.notNull())
    .addColumn("denom", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("server_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("user_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("cost", "numeric", (c) => c.notNull())
    .addColumn("supplier", "text", (c) => c.notNull())
    .addColumn("supplier_order_id", "text")
    .addColumn("payment_provider", "text")
    .addColumn("payment_reference", "text")
    .addColumn("last_error", "text")
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn(
      "updated_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addCheckConstraint(
      "orders_buyer_type",
      sql`buyer_type IN ('reseller', 'consumer')`,
    )
    .addCheckConstraint("orders_amount_positive", sql`amount_cents > 0`)
    .execute();
  await sql`CREATE INDEX orders_reseller_created ON orders (reseller_id, created_at DESC)`
    .execute(db);
  await sql`CREATE INDEX orders_created ON orders (created_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX orders_open ON orders (status) WHERE status IN ('new', 'pending', 'payment-received-pending-disbursement')`
    .execute(db);

  await db.schema
    .createTable("restricted_mlbb_users")
    .addColumn(
      "id",
      "uuid",
      (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("server_id", "text", (c) => c.notNull())
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("created_by", "text", (c) => c.notNull())
    .addUniqueConstraint("restricted_mlbb_users_ids", ["user_id", "server_id"])
    .execute();

  await db.schema
    .createTable("emails")
    .addColumn(
      "id",
      "uuid",
      (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn("folder", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("from_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("date", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("body_html", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("message_id", "text")
    .addColumn("in_reply_to", "text")
    .addColumn("deleted_at", "timestamptz")
    .addCheckConstraint("emails_folder", sql`folder IN ('inbox', 'sent')`)
    .execute();
  await sql`CREATE UNIQUE INDEX emails_message_id ON emails (folder, message_id) WHERE message_id IS NOT NULL`
    .execute(db);

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "jsonb", (c) => c.notNull())
    .addColumn(
      "updated_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("updated_by", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_type", "text", (c) => c.notNull())
    .addColumn("user_id", "uuid", (c) => c.notNull())
    .addColumn("stage", "text", (c) => c.notNull())
    .addColumn("totp_failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn(
      "last_seen_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
    .addCheckConstraint(
      "sessions_user_type",
      sql`user_type IN ('admin', 'reseller')`,
    )
    .addCheckConstraint(
      "sessions_stage",
      sql`stage IN ('enrol', 'password_ok', 'active')`,
    )
    .execute();
  await sql`CREATE INDEX sessions_user ON sessions (user_type, user_id)`
    .execute(db);
  await sql`CREATE INDEX sessions_expires ON sessions (expires_at)`.execute(db);

  await db.schema
    .createTable("login_attempts")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn(
      "window_start",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("response_body", "jsonb")
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["scope", "key"])
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn(
      "run_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(10))
    .addColumn("locked_until", "timestamptz")
    .addColumn("locked_by", "text")
    .addColumn("last_error", "text")
    .addColumn("done_at", "timestamptz")
    .addColumn(
      "created_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .execute();
  await sql`CREATE INDEX jobs_due ON jobs (run_at) WHERE done_at IS NULL`
    .execute(db);

  await db.schema
    .createTable("payment_events")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("event_key", "text", (c) => c.notNull())
    .addColumn("raw_body", "text", (c) => c.notNull())
    .addColumn(
      "received_at",
      "timestamptz",
      (c) => c.notNull().defaultTo(sql`now()`),
    )
    .addUniqueConstraint("payment_events_once", ["provider", "event_key"])
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("actor_type", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("actor_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text")
    .addColumn("target_id", "text")
    .addColumn("before", "jsonb")
    .addColumn("after", "jsonb")
    .execute();
  await sql`CREATE INDEX audit_log_at ON audit_log (at DESC)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (
    const table of [
      "audit_log",
      "payment_events",
      "jobs",
      "idempotency_keys",
      "login_attempts",
      "sessions",
      "settings",
      "emails",
      "restricted_mlbb_users",
      "orders",
      "games",
      "consumers",
      "balance_history",
      "resellers",
      "admins",
    ]
  ) {
    await db.schema.dropTable(table).execute();
  }
}
