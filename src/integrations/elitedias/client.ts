// EliteDias ("elephant", "ed") reseller API client. Wire format: shared/reference/external-apis.md
// §2. The api_key travels in the JSON body, every request carries an Origin header, and `code`
// "200" (a string) means OK. checkid lives on a different host, hence its own URL.

import { z } from "zod";
import {
  decimalText,
  describeIssues,
  failWith,
  inFlightLimit,
  postJson,
  type SupplierError,
  type SupplierOrderStatus,
  type SupplierResult,
} from "../fetch-json.ts";

/** How to reach and authenticate against EliteDias. */
export interface ElitediasClientOptions {
  /** e.g. https://dev.api.elitedias.com (a trailing slash is optional). */
  baseUrl: string;
  /** Full URL of checkid, e.g. https://api.elitedias.com/checkid. */
  checkIdUrl: string;
  apiKey: string;
  /** Our registered site, sent as the Origin header. */
  origin: string;
  /** Upper bound for one call, connect to last body byte. */
  timeoutMs: number;
  /** Calls out at EliteDias at once from this client; more wait their turn (default: no cap). */
  maxInFlight?: number;
  /** Server-list endpoint; no public client calls one, so the name is a guess (default below). */
  serverListPath?: string;
}

/** Default server-list endpoint; unconfirmed (external-apis.md §2.3). */
export const ELITEDIAS_SERVER_LIST_PATH = "/elitedias_game_servers";

/** game_fields `info`: the field names the top-up needs, and the supplier's notes. */
export interface ElitediasGameFields {
  fields: string[];
  notes: string;
}

/** checkid's verdict; `region` is present on valid Mobile Legends answers. */
export interface ElitediasCheckId {
  valid: "valid" | "invalid" | "error";
  name?: string;
  error?: string;
  region?: string;
}

/** What a top-up needs; `denom` is a key of the denominations map. */
export interface ElitediasTopupInput {
  game: string;
  userid: string;
  serverid?: string;
  denom: string;
  /** Our order id. Whether EliteDias deduplicates on it is unconfirmed; the simulator does. */
  reference: string;
}

/** An accepted top-up. */
export interface ElitediasTopup {
  orderId: string;
  status: string | null;
  message: string | null;
}

/** track_order, normalised. */
export interface ElitediasTrackedOrder {
  orderId: string;
  /** Our status, from mapElitediasOrderStatus. */
  status: SupplierOrderStatus;
  /** EliteDias's own order_status text, kept for operators. */
  supplierStatus: string;
  price: string | null;
  message: string | null;
}

/** The EliteDias API, one method per endpoint used by the app. */
export interface ElitediasClient {
  /** The game codes EliteDias sells (elitedias_games_data, else elitedias_games_available). */
  gamesAvailable(): Promise<SupplierResult<string[]>>;
  /** Denomination name → price as exact decimal text; empty when EliteDias has none (code 403). */
  denominations(game: string): Promise<SupplierResult<Record<string, string>>>;
  gameFields(game: string): Promise<SupplierResult<ElitediasGameFields>>;
  /** Server label → value; empty when the game has no server list. */
  serverList(game: string): Promise<SupplierResult<Record<string, string>>>;
  checkId(
    game: string,
    userid: string,
    serverid?: string,
  ): Promise<SupplierResult<ElitediasCheckId>>;
  topup(input: ElitediasTopupInput): Promise<SupplierResult<ElitediasTopup>>;
  trackOrder(orderId: string): Promise<SupplierResult<ElitediasTrackedOrder>>;
  /** Reseller balance as exact decimal text (currency unconfirmed, probably SGD). */
  balance(): Promise<SupplierResult<string>>;
}

/**
 * Maps track_order's order_status to ours. Only "contains success" is seen in public code; other
 * words are guesses, and anything unrecognised stays pending so it is never refunded by mistake.
 */
export function mapElitediasOrderStatus(status: string): SupplierOrderStatus {
  const lower = status.toLowerCase();
  if (lower.includes("success")) return "successful";
  if (["fail", "refund", "cancel"].some((word) => lower.includes(word))) return "failed";
  return "pending";
}

const text = z.union([z.string(), z.number()]).transform(String);
const optionalText = text.nullish().transform((v) => v ?? null);
// An empty PHP associative array arrives as [].
const emptyArrayAsMap = z.array(z.never()).transform(() => ({}));

const StatusSchema = z.object({ code: text, message: optionalText });
const MessageSchema = z.object({ message: optionalText });
const GamesSchema = z.object({ games: z.array(z.string()) });
// elitedias_games_data: the game codes are the keys of `info` (starktoony/elitedias_price_log
// models.py since b2bcda8), which that client first read as `data` (020b366): either is taken.
const GameCodeMap = z.union([z.record(z.string(), z.unknown()), emptyArrayAsMap])
  .transform((games) => Object.keys(games));
const GamesDataSchema = z.union([
  z.object({ info: GameCodeMap }).transform((answer) => answer.info),
  z.object({ data: GameCodeMap }).transform((answer) => answer.data),
]);
// The map is flat, so the keys of a `code: "200"` envelope must not be read as denominations.
const DenominationsSchema = z.record(z.string(), z.unknown())
  .transform(({ code: _code, message: _message, ...prices }) => prices)
  .pipe(z.record(z.string(), decimalText));
const GameFieldsSchema = z.object({
  info: z.object({
    fields: z.array(z.string()),
    notes: z.string().nullish().transform((v) => v ?? ""),
  }),
});
const ServersSchema = z.object({ servers: z.union([z.record(z.string(), text), emptyArrayAsMap]) });
const CheckIdSchema = z.object({
  valid: z.enum(["valid", "invalid", "error"]),
  name: z.string().optional(),
  error: z.string().optional(),
  region: z.string().optional(),
});
const TopupSchema = z.object({ order_id: text, status: optionalText, message: optionalText });
// Only order_status is required: the public model of this answer (TrackOrderResponse) has every
// other field optional, so an answer without order_id is still the order that was asked for.
const TrackSchema = z.object({
  order_id: text.optional(),
  order_status: z.string(),
  price: decimalText.nullish().transform((v) => v ?? null),
  message: optionalText,
});
const BalanceSchema = z.object({ reseller_balance: decimalText });

/**
 * EliteDias's HTTP 429: its rate limit refused the request, which was not carried out; the one
 * public client that meets it waits and sends the same request again
 * (starktoony/elitedias_price_log:src/app/elitedias/api.py, _post_with_backoff), so the caller may
 * send it again later, after `retryAfterMs` when EliteDias named a wait.
 */
function throttled(detail: string | null, retryAfterMs: number | undefined): SupplierError {
  const said = detail ? `: ${detail}` : "";
  const failure = failWith(
    "throttled",
    `EliteDias is limiting our requests (HTTP 429)${said}`,
    "429",
  );
  return retryAfterMs === undefined ? failure : { ...failure, retryAfterMs };
}

/** Creates an EliteDias client; no call is made until a method is used. */
export function createElitediasClient(options: ElitediasClientOptions): ElitediasClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const serverListPath = options.serverListPath ?? ELITEDIAS_SERVER_LIST_PATH;
  const headers = {
    "Content-Type": "application/json",
    "Accept": "application/json",
    "Origin": options.origin,
  };

  const limited = inFlightLimit(options.maxInFlight ?? Infinity);

  async function post(
    url: string,
    body: Record<string, unknown>,
    endpoint: string,
    quietCode?: string,
  ) {
    const response = await limited(() =>
      postJson(url, JSON.stringify(body), headers, options.timeoutMs, {
        vendor: "elitedias",
        endpoint,
        // A `code` other than "200" is a refusal, but for the one an endpoint uses for "none".
        refused: (answer) => {
          const status = StatusSchema.safeParse(answer);
          return status.success && status.data.code !== "200" && status.data.code !== quietCode;
        },
      })
    );
    if (!response.ok) {
      return response.kind === "http" && response.code === "429"
        ? throttled(response.message.replace(/^HTTP 429: ?/, ""), response.retryAfterMs)
        : response;
    }
    const { status, json, retryAfterMs } = response.value;
    if (status < 200 || status > 299) {
      const detail = MessageSchema.safeParse(json);
      const message = detail.success ? detail.data.message : null;
      if (status === 429) return throttled(message, retryAfterMs);
      const reason = message === null ? "" : `: ${message}`;
      return failWith("http", `HTTP ${status} from EliteDias${reason}`, String(status));
    }
    return { ok: true as const, value: json };
  }

  /** Calls a reseller endpoint; a `code` other than "200" is a supplier error, or `emptyOn`'s value. */
  async function call<S extends z.ZodType>(
    path: string,
    fields: Record<string, unknown>,
    schema: S,
    emptyOn?: { code: string; value: z.output<S> },
  ): Promise<SupplierResult<z.output<S>>> {
    const response = await post(
      `${base}${path}`,
      { api_key: options.apiKey, ...fields },
      path.replace(/^\//, ""),
      emptyOn?.code,
    );
    if (!response.ok) return response;
    const status = StatusSchema.safeParse(response.value);
    if (status.success && status.data.code !== "200") {
      const { code, message } = status.data;
      if (emptyOn !== undefined && code === emptyOn.code) return { ok: true, value: emptyOn.value };
      return failWith("supplier", message ?? `EliteDias error ${code}`, code);
    }
    const parsed = schema.safeParse(response.value);
    if (!parsed.success) {
      return failWith("malformed", `EliteDias ${path}: ${describeIssues(parsed.error)}`);
    }
    return { ok: true, value: parsed.data };
  }

  return {
    async gamesAvailable() {
      // The newest public client reads /elitedias_games_data, having left
      // /elitedias_games_available (starktoony/elitedias_price_log:src/app/elitedias/api.py since
      // 020b366), so that is asked first. The older list is asked only when the newer is not
      // there (a 404) or does not read as a list: a refusal, a 429 or an outage says nothing about
      // which endpoint exists, and is reported as it is.
      const listed = await call("/elitedias_games_data", {}, GamesDataSchema);
      if (listed.ok || !(listed.kind === "malformed" || listed.code === "404")) return listed;
      const older = await call("/elitedias_games_available", {}, GamesSchema);
      return older.ok ? { ok: true, value: older.value.games } : older;
    },

    denominations(game) {
      // The spec: code "403" means the game has no denominations right now.
      const none = { code: "403", value: {} };
      return call("/elitedias_api_denominations", { game }, DenominationsSchema, none);
    },

    async gameFields(game) {
      const result = await call("/elitedias_game_fields", { game }, GameFieldsSchema);
      return result.ok ? { ok: true, value: result.value.info } : result;
    },

    async serverList(game) {
      const result = await call(serverListPath, { game }, ServersSchema);
      return result.ok ? { ok: true, value: result.value.servers } : result;
    },

    async checkId(game, userid, serverid) {
      // checkid is public and on another host: it gets no api_key.
      const body = serverid === undefined ? { game, userid } : { game, userid, serverid };
      const response = await post(options.checkIdUrl, body, "checkid");
      if (!response.ok) return response;
      const parsed = CheckIdSchema.safeParse(response.value);
      // checkid has no `code` convention of its own, but an error in the reseller shape is still
      // the supplier talking, not garbage.
      const refusal = StatusSchema.safeParse(response.value);
      if (!parsed.success && refusal.success && refusal.data.code !== "200") {
        const { code, message } = refusal.data;
        return failWith("supplier", message ?? `EliteDias checkid error ${code}`, code);
      }
      if (!parsed.success) {
        return failWith("malformed", `EliteDias checkid: ${describeIssues(parsed.error)}`);
      }
      return { ok: true, value: parsed.data };
    },

    async topup(input) {
      const result = await call("/elitedias_reseller_topup_api", {
        game: input.game,
        userid: input.userid,
        serverid: input.serverid ?? "",
        denom: input.denom,
        reference: input.reference,
      }, TopupSchema);
      if (!result.ok) return result;
      const { order_id, status, message } = result.value;
      return { ok: true, value: { orderId: order_id, status, message } };
    },

    async trackOrder(orderId) {
      const result = await call("/track_order", { order_id: orderId }, TrackSchema);
      if (!result.ok) return result;
      const order = result.value;
      return {
        ok: true,
        value: {
          orderId: order.order_id ?? orderId,
          status: mapElitediasOrderStatus(order.order_status),
          supplierStatus: order.order_status,
          price: order.price,
          message: order.message,
        },
      };
    },

    async balance() {
      const result = await call("/elitedias_api_balance", {}, BalanceSchema);
      return result.ok ? { ok: true, value: result.value.reseller_balance } : result;
    },
  };
}
