import type {
  ColumnType,
  Generated,
  GeneratedAlways,
  Insertable,
  Selectable,
  Updateable,
} from "kysely";
import type { OrderStatus } from "../shared/order-lifecycle.ts";

/** Set by the database on insert; never written by the app. */
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** JSONB: read as a value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
/** PostgreSQL numeric, kept as an exact decimal string. */
type Numeric = ColumnType<string, string | number, string | number>;

export type UserType = "admin" | "reseller";
export type SessionStage = "enrol" | "password_ok" | "active";
export type BalanceEntryType =
  | "initial"
  | "order_placed"
  | "order_refunded"
  | "top_up"
  | "deduct";

export interface AdminsTable {
  id: Generated<string>;
  name: string;
  given_name: string | null;
  family_name: string | null;
  email: string;
  password_hash: string;
  rank: string;
  remarks: Generated<string>;
  totp_secret_enc: string | null;
  totp_confirmed: Generated<boolean>;
  totp_last_step: Generated<number>;
  created_by: Generated<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface ResellersTable {
  id: Generated<string>;
  name: string;
  phone: Generated<string>;
  email: string;
  password_hash: string;
  balance_cents: Generated<number>;
  markup: ColumnType<Record<string, number>, string | undefined, string>;
  remarks: Generated<string>;
  disable_discounts: Generated<boolean>;
  rank: Generated<string>;
  two_fa_enabled: Generated<boolean>;
  totp_secret_enc: string | null;
  totp_confirmed: Generated<boolean>;
  totp_last_step: Generated<number>;
  created_by: Generated<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  deleted_at: Date | null;
}

export interface OrderSnapshot {
  id: string;
  date: string;
  item: string;
  amount: number;
}

export interface BalanceHistoryTable {
  id: Generated<number>;
  reseller_id: string;
  at: CreatedAt;
  type: BalanceEntryType;
  old_cents: number;
  new_cents: number;
  order_id: string | null;
  order_snapshot: ColumnType<
    OrderSnapshot | null,
    string | null | undefined,
    never
  >;
  actor: Generated<string>;
}

export interface ConsumersTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: Generated<string>;
  created_at: CreatedAt;
  deleted_at: Date | null;
}

export interface GamesTable {
  id: Generated<string>;
  name: string;
  supplier_name: Generated<string>;
  supplier: Generated<string>;
  supplier_game_id: string | null;
  supplier_notes: Generated<string>;
  has_packages: Generated<boolean>;
  is_hidden: Generated<boolean>;
  is_hidden_consumer: Generated<boolean>;
  is_out_of_stock: Generated<boolean>;
  priority: Generated<number>;
  tagline: Generated<string>;
  description: Generated<string>;
  game_image: Generated<string>;
  about_this_game: Generated<string>;
  faq: Json<{ question: string; answer: string }[]>;
  platforms: Json<string[]>;
  requires_server_id: Generated<boolean>;
  requires_character_name: Generated<boolean>;
  instructional_image: Generated<string>;
  game_currency: Generated<string>;
  consumer_markup: Numeric;
  reseller_markup: Json<Record<string, number>>;
  reseller_markup_all: Numeric;
  markup_for_individual_resellers: Generated<boolean>;
  servers: Json<Record<string, string>>;
  redemption_codes: Generated<string>;
  game_items: Json<unknown[]>;
  packages: Json<unknown[]>;
  links: Json<Record<string, { name: string; link: string }[]>>;
  official_website_link: Generated<string>;
  fandom_link: Generated<string>;
  reddit_link: Generated<string>;
  version: Generated<number>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface OrdersTable {
  id: string;
  buyer_type: "reseller" | "consumer";
  /** Its state in the order's lifecycle (src/shared/order-lifecycle.ts). */
  status: OrderStatus;
  reseller_id: string | null;
  reseller_name: string | null;
  old_balance_cents: number | null;
  new_balance_cents: number | null;
  consumer_id: string | null;
  consumer_name: string | null;
  consumer_email: string | null;
  consumer_phone: string | null;
  game_id: string | null;
  game: string;
  package: string | null;
  package_ed_name: string | null;
  item: string;
  denom: string;
  user_id: string;
  server_id: Generated<string>;
  user_name: Generated<string>;
  amount_cents: number;
  cost: Numeric;
  supplier: string;
  supplier_order_id: string | null;
  payment_provider: string | null;
  payment_reference: string | null;
  /** The HitPay payment that paid it (migration 0023): what a refund names. */
  payment_id: string | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** Since when the order waits in Needs review for an operator (migration 0010); null: it does not. */
  review_since: Date | null;
  /** Why it waits there. */
  review_reason: string | null;
  /** The searchable fields lower-cased, computed by the database (migration 0004). */
  search_text: GeneratedAlways<string>;
  /** The item's key in its game once the order left its first route (migration 0024). */
  route_item_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The product id its route names the game by, where not the game's own (migration 0024). */
  supplier_game_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RestrictedMlbbUsersTable {
  id: Generated<string>;
  user_id: string;
  server_id: string;
  created_at: CreatedAt;
  created_by: string;
}

export interface EmailsTable {
  id: Generated<string>;
  folder: "inbox" | "sent";
  to_address: string;
  from_address: string;
  subject: Generated<string>;
  date: CreatedAt;
  body_html: Generated<string>;
  message_id: string | null;
  in_reply_to: string | null;
  references_header: string | null;
  deleted_at: Date | null;
}

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: CreatedAt;
  updated_by: Generated<string>;
}

export interface SessionsTable {
  id_hash: string;
  user_type: UserType;
  user_id: string;
  stage: SessionStage;
  /** Codes tried on this pending sign-in, each counted before it is checked. */
  totp_failures: Generated<number>;
  /** The sealed TOTP secret an enrolment session was issued (migration 0011); never selected with the session. */
  totp_secret_enc: string | null;
  created_at: CreatedAt;
  last_seen_at: CreatedAt;
  expires_at: ColumnType<Date, Date, Date>;
  ip: Generated<string>;
}

export interface LoginAttemptsTable {
  key: string;
  window_start: CreatedAt;
  failures: Generated<number>;
  /** When the last hit was counted (migration 0012). */
  last_at: CreatedAt;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  response_status: number | null;
  /** The answer as the JSON text first sent (migration 0019), so a replay is byte for byte. */
  response_body: string | null;
  created_at: CreatedAt;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: Json<Record<string, unknown>>;
  run_at: CreatedAt;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_until: Date | null;
  locked_by: string | null;
  last_error: string | null;
  done_at: Date | null;
  /** The job used its last attempt; it waits for an admin's retry (migration 0010). */
  failed_at: Date | null;
  created_at: CreatedAt;
  /** The X-Request-Id of the request that queued it (migration 0015). */
  request_id: string | null;
}

/** One create request sent to a supplier (migration 0010): written before it is sent. */
export interface SupplierAttemptsTable {
  id: Generated<number>;
  order_id: string;
  supplier: string;
  started_at: CreatedAt;
  /** null while the request is out; "uncertain" when no usable answer came. */
  outcome: string | null;
  /** What the supplier answered (or why nothing usable came), for the operator. */
  answer: string | null;
  finished_at: Date | null;
}

/** What a refund row's `status` says (migration 0023). */
export type RefundStatus = "requested" | "sending" | "pending" | "succeeded" | "refused";

/** The refund of a consumer order's HitPay payment, at most one per order (migration 0023). */
export interface RefundsTable {
  id: Generated<number>;
  order_id: string;
  /** The HitPay payment refunded; null until known (read off HitPay when the order lacks it). */
  payment_id: string | null;
  amount_cents: number;
  /** Why, as the buyer's refund email says it. */
  reason: string;
  /** "system", or the admin who asked. */
  requested_by: string;
  /**
   * requested (to send), sending (a request is out since sent_at), pending (HitPay took it and
   * has not finished), succeeded, refused (HitPay said no: an operator decides).
   */
  status: Generated<RefundStatus>;
  hitpay_refund_id: string | null;
  /** HitPay's own word for the refund, as last read. */
  hitpay_status: string | null;
  /** HitPay's refusal, or why the last attempt got no usable answer. */
  error: string | null;
  /** Refund requests sent to HitPay so far. */
  sends: Generated<number>;
  sent_at: Date | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

/** One ended stay in Needs review (migration 0025): appended by a trigger when review_since clears. */
export interface OrderReviewSpansTable {
  id: Generated<number>;
  order_id: string;
  since: Date;
  ended_at: CreatedAt;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  provider: string;
  event_key: string;
  raw_body: string;
  received_at: CreatedAt;
  /** The order the event named, when one matched. */
  order_id: string | null;
  /** What the event did: "paid", "duplicate-state", "refused: …", "recorded". */
  outcome: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: CreatedAt;
  actor_type: string;
  actor_id: string | null;
  actor_name: Generated<string>;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: ColumnType<unknown, string | null | undefined, never>;
  after: ColumnType<unknown, string | null | undefined, never>;
}

/** A reseller's API key (migration 0007): only the secret's SHA-256 is stored. */
export interface ApiKeysTable {
  id: Generated<string>;
  reseller_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * Successful orders summed per Singapore day, reseller and package, as far as the job runner has
 * folded dashboard_changes into it (rollUpDashboard); written by nothing else.
 */
export interface DashboardDailyTable {
  day: Date;
  reseller_id: string | null;
  package: string | null;
  orders: ColumnType<string, never, never>;
  amount_cents: ColumnType<string, never, never>;
  cost: ColumnType<string, never, never>;
}

/**
 * Signed lines (±1 order, ±amount, ±cost) that triggers on orders append when a write moves an
 * order into or out of the successful totals (migration 0017); folded away by rollUpDashboard.
 */
export interface DashboardChangesTable {
  day: Date;
  reseller_id: string | null;
  package: string | null;
  orders: ColumnType<number, never, never>;
  amount_cents: ColumnType<string, never, never>;
  cost: ColumnType<string, never, never>;
}

/** A reseller's webhook: callback URL and signing secret sealed with the app's secret box. */
export interface ResellerWebhooksTable {
  reseller_id: string;
  url: string;
  secret_sealed: string;
  updated_at: CreatedAt;
}

/** One order event for a reseller's webhook; `body` is the exact JSON every attempt sends. */
export interface WebhookEventsTable {
  id: Generated<string>;
  reseller_id: string;
  type: string;
  order_id: string;
  body: string;
  created_at: CreatedAt;
}

/** One attempt to deliver an event, with what the receiver answered. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  reseller_id: string;
  url: string;
  attempt: number;
  status_code: number | null;
  response_excerpt: Generated<string>;
  error: string | null;
  duration_ms: number;
  at: CreatedAt;
}

/** One reading of a supplier's prepaid balance (migration 0016). */
export interface SupplierBalanceReadingsTable {
  id: Generated<number>;
  vendor: string;
  balance_cents: number;
  currency: string;
  read_at: CreatedAt;
}

/** When an alert condition last sent its email (migration 0016). */
export interface AlertConditionsTable {
  condition: string;
  last_sent_at: Date;
}

/** An alert emailed to the admins (migration 0016). */
export interface AlertsTable {
  id: Generated<number>;
  condition: string;
  subject: string;
  detail: string;
  recipients: number;
  sent_at: CreatedAt;
}

/**
 * One further route of a game's item (migration 0024): the item's own supplier is the first and
 * is not stored; these follow it by `priority` (1, 2, …), one per supplier.
 */
export interface ItemRoutesTable {
  game_id: string;
  /** The item's key in its game: its own supplier's key (what its orders store in `denom`). */
  item_key: string;
  priority: number;
  supplier: string;
  /** How that supplier knows the game: its code or its product id (its port's `gameKey`). */
  supplier_game: string;
  /** That supplier's key of the item (an order's `denom` there). */
  supplier_item: string;
  /** The cost as that supplier stated it. */
  cost: Numeric;
  updated_at: CreatedAt;
}

/** A stored password hash found to be no published password, by its SHA-256 (migration 0021). */
export interface PasswordChecksTable {
  digest: string;
  checked_at: CreatedAt;
}

export interface Database {
  admins: AdminsTable;
  resellers: ResellersTable;
  balance_history: BalanceHistoryTable;
  consumers: ConsumersTable;
  games: GamesTable;
  orders: OrdersTable;
  restricted_mlbb_users: RestrictedMlbbUsersTable;
  emails: EmailsTable;
  settings: SettingsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  payment_events: PaymentEventsTable;
  password_checks: PasswordChecksTable;
  audit_log: AuditLogTable;
  dashboard_daily: DashboardDailyTable;
  dashboard_changes: DashboardChangesTable;
  api_keys: ApiKeysTable;
  reseller_webhooks: ResellerWebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  supplier_attempts: SupplierAttemptsTable;
  refunds: RefundsTable;
  order_review_spans: OrderReviewSpansTable;
  supplier_balance_readings: SupplierBalanceReadingsTable;
  alert_conditions: AlertConditionsTable;
  alerts: AlertsTable;
  item_routes: ItemRoutesTable;
}

export type AdminRow = Selectable<AdminsTable>;
export type NewAdmin = Insertable<AdminsTable>;
export type AdminUpdate = Updateable<AdminsTable>;
export type ResellerRow = Selectable<ResellersTable>;
export type NewReseller = Insertable<ResellersTable>;
export type BalanceHistoryRow = Selectable<BalanceHistoryTable>;
export type SessionRow = Selectable<SessionsTable>;
/** An order as the app reads it; search_text is only searched, never read (migration 0004). */
export type OrderRow = Omit<Selectable<OrdersTable>, "search_text">;
export type NewOrder = Insertable<OrdersTable>;
export type RefundRow = Selectable<RefundsTable>;
export type GameRow = Selectable<GamesTable>;
export type RestrictedMlbbUserRow = Selectable<RestrictedMlbbUsersTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ResellerWebhookRow = Selectable<ResellerWebhooksTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type SupplierAttemptRow = Selectable<SupplierAttemptsTable>;
export type ItemRouteRow = Selectable<ItemRoutesTable>;
