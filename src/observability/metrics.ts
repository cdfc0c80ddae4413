// The app's Prometheus metrics (prom-client), served by GET /metrics (cli/serve.ts). Each process
// keeps its own and labels them with `worker`, its index among the workers of its instance (0 …):
// a restart keeps the same series (a pid would start new ones), and Prometheus's own `instance`
// label tells the instances apart. Kept on globalThis: the CLI and the built server bundle each
// carry a copy of this module, and both must count into the one registry. prom-client's default
// process metrics (start time, CPU, memory, open files, event-loop lag) are collected too.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  registry.setDefaultLabels({ worker: Deno.env.get("TOPUP_WORKER_INDEX") ?? "0" });
  collectDefaultMetrics({ register: registry });
  // Gauges whose names end in _total, against Prometheus's conventions (promtool check metrics
  // refuses them); the resources they count show in memory and event-loop lag anyway.
  for (
    const name of [
      "nodejs_active_handles_total",
      "nodejs_active_requests_total",
      "nodejs_active_resources_total",
    ]
  ) registry.removeSingleMetric(name);
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "topup_http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    // By status class (2xx …): a histogram per full status multiplies its bucket series.
    httpDuration: new Histogram({
      name: "topup_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by status class (2xx, 4xx …)",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    orders: new Counter({
      name: "topup_orders_total",
      help:
        "Orders placed, delivered, failed, refunded and held for review in this process, by audience (reseller or consumer) and supplier",
      labelNames: ["event", "audience", "supplier"] as const,
      registers,
    }),
    deliveryTime: new Histogram({
      name: "topup_order_delivery_seconds",
      help: "Time from an order's placement to its delivery, by audience and supplier",
      labelNames: ["audience", "supplier"] as const,
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600],
      registers,
    }),
    consumerPayments: new Counter({
      name: "topup_consumer_payments_total",
      help: "Consumer payments settled in this process, by outcome",
      labelNames: ["outcome"] as const,
      registers,
    }),
    jobsQueued: new Gauge({
      name: "topup_jobs_queued",
      help: "Jobs waiting or running (not done, not failed), per kind, read at scrape time",
      labelNames: ["kind"] as const,
      registers,
    }),
    jobsOldestAge: new Gauge({
      name: "topup_jobs_oldest_age_seconds",
      help: "Age of the oldest due job not done (seconds past its run time), per kind",
      labelNames: ["kind"] as const,
      registers,
    }),
    jobsFailed: new Gauge({
      name: "topup_jobs_failed",
      help: "Jobs that used their last attempt and wait for an admin, per kind",
      labelNames: ["kind"] as const,
      registers,
    }),
    jobRuns: new Counter({
      name: "topup_job_runs_total",
      help: "Job attempts run in this process, by kind and outcome (done, retry, failed)",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    supplierCalls: new Counter({
      name: "topup_supplier_calls_total",
      help:
        "Calls to outside services, by vendor, endpoint and outcome (answered, refused, http_error or the failure's kind)",
      labelNames: ["vendor", "endpoint", "outcome"] as const,
      registers,
    }),
    supplierDuration: new Histogram({
      name: "topup_supplier_call_duration_seconds",
      help: "Time of each call to an outside service, by vendor, endpoint and outcome",
      labelNames: ["vendor", "endpoint", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "topup_webhook_deliveries_total",
      help: "Reseller webhook delivery attempts, by outcome (delivered, failed)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    ledgerOk: new Gauge({
      name: "topup_ledger_check_ok",
      help: "The last ledger check in this process: 1 sound, 0 violations found",
      registers,
    }),
    ledgerViolations: new Gauge({
      name: "topup_ledger_check_violations",
      help: "Violations the last ledger check in this process found",
      registers,
    }),
    ledgerCheckedAt: new Gauge({
      name: "topup_ledger_check_timestamp_seconds",
      help: "When the last ledger check in this process ran (Unix time)",
      registers,
    }),
    supplierBalance: new Gauge({
      name: "topup_supplier_balance",
      help: "A supplier's prepaid balance as last read, in the currency its `currency` label names",
      labelNames: ["vendor", "currency"] as const,
      registers,
    }),
    ordersInReview: new Gauge({
      name: "topup_orders_in_review",
      help: "Orders waiting in Needs review for an operator, read at scrape time",
      registers,
    }),
    ordersOpen: new Gauge({
      name: "topup_orders_open",
      help:
        "Orders not yet ended, by state (awaiting_payment, awaiting_supplier: paid or placed and not yet accepted by a supplier, pending_at_supplier), read at scrape time",
      labelNames: ["state"] as const,
      registers,
    }),
    ordersOpenOldestAge: new Gauge({
      name: "topup_orders_open_oldest_age_seconds",
      help: "Age of the oldest order in each open state, since it was placed (0 when none)",
      labelNames: ["state"] as const,
      registers,
    }),
    hitpayWebhooks: new Counter({
      name: "topup_hitpay_webhooks_total",
      help:
        "HitPay webhooks received in this process, by version (v1, v2) and result (applied, duplicate, ignored, refused, bad_signature, …)",
      labelNames: ["version", "result"] as const,
      registers,
    }),
    reconcileLastRun: new Gauge({
      name: "topup_reconcile_last_run_timestamp_seconds",
      help: "When the last HitPay reconciliation (payments reconcile) ended (Unix time)",
      registers,
    }),
    reconcileLastOrders: new Gauge({
      name: "topup_reconcile_last_run_orders",
      help:
        "Orders the last HitPay reconciliation checked, by outcome (checked, paid, expired, failed)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    ready: new Gauge({
      name: "topup_ready",
      help: "1 when this process would answer /readyz with 200, 0 when 503; read at scrape time",
      registers,
    }),
    fxRateAge: new Gauge({
      name: "topup_fx_rate_age_seconds",
      help: "Age of the cached USD/SGD market rate, read at scrape time (absent before the first)",
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;

const METRICS_KEY = Symbol.for("topup.observability.metrics");

function metrics(): Metrics {
  const g = globalThis as { [METRICS_KEY]?: Metrics };
  g[METRICS_KEY] ??= createMetrics();
  return g[METRICS_KEY];
}

/** The Prometheus text of every metric of this process, and its content type. */
export async function renderMetrics(): Promise<{ text: string; contentType: string }> {
  const { registry } = metrics();
  return { text: await registry.metrics(), contentType: registry.contentType };
}

/** The methods counted under their own name; any other is `other`, so a client cannot add series. */
const COUNTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One answered HTTP request. */
export function observeRequest(
  route: string,
  method: string,
  status: number,
  seconds: number,
): void {
  const counted = COUNTED_METHODS.has(method) ? method : "other";
  const m = metrics();
  m.httpRequests.inc({ route, method: counted, status: String(status) });
  m.httpDuration.observe(
    { route, method: counted, status_class: `${Math.floor(status / 100)}xx` },
    seconds,
  );
}

export type OrderEvent = "placed" | "delivered" | "failed" | "refunded" | "held_for_review";

/** An order's step; `supplier` as orders record it (moogold, elephant). */
export function countOrder(
  event: OrderEvent,
  order: { buyer_type: string; supplier: string },
): void {
  metrics().orders.inc({ event, audience: order.buyer_type, supplier: order.supplier });
}

/** A delivered order's time since placement. */
export function observeDelivery(
  order: { buyer_type: string; supplier: string },
  seconds: number,
): void {
  metrics().deliveryTime.observe(
    { audience: order.buyer_type, supplier: order.supplier },
    Math.max(0, seconds),
  );
}

export function countConsumerPayment(outcome: string): void {
  metrics().consumerPayments.inc({ outcome });
}

export interface JobQueueFigures {
  kind: string;
  queued: number;
  oldestAgeSeconds: number;
  failed: number;
}

/** The job queue as read at scrape time; kinds no longer listed go back to zero. */
export function setJobQueue(figures: JobQueueFigures[]): void {
  const m = metrics();
  m.jobsQueued.reset();
  m.jobsOldestAge.reset();
  m.jobsFailed.reset();
  for (const f of figures) {
    m.jobsQueued.set({ kind: f.kind }, f.queued);
    m.jobsOldestAge.set({ kind: f.kind }, f.oldestAgeSeconds);
    m.jobsFailed.set({ kind: f.kind }, f.failed);
  }
}

export function countJobRun(kind: string, outcome: "done" | "retry" | "failed"): void {
  metrics().jobRuns.inc({ kind, outcome });
}

/** One call to an outside service; `outcome` is "ok" or the failure's kind (timeout, http …). */
export function observeSupplierCall(
  call: { vendor: string; endpoint: string },
  outcome: string,
  seconds: number,
): void {
  const labels = { vendor: call.vendor, endpoint: call.endpoint, outcome };
  const m = metrics();
  m.supplierCalls.inc(labels);
  m.supplierDuration.observe(labels, seconds);
}

export function countWebhookDelivery(outcome: "delivered" | "failed"): void {
  metrics().webhookDeliveries.inc({ outcome });
}

/** The outcome of a ledger check run in this process. */
export function setLedgerCheck(violations: number, at = new Date()): void {
  const m = metrics();
  m.ledgerOk.set(violations === 0 ? 1 : 0);
  m.ledgerViolations.set(violations);
  m.ledgerCheckedAt.set(at.getTime() / 1000);
}

/** A supplier's prepaid balance as just read (the operations watch's balance reader sets it). */
export function setSupplierBalance(vendor: string, currency: string, amount: number): void {
  metrics().supplierBalance.set({ vendor, currency }, amount);
}

/** What GET /metrics reads from the database at each scrape, besides the job queue. */
export interface ScrapeFigures {
  inReview: number;
  open: { state: string; count: number; oldestAgeSeconds: number }[];
  /** Absent while no market rate was ever fetched. */
  fxRateAgeSeconds?: number;
  /** Absent while no reconciliation ran. */
  reconcile?: { endedAt: Date; outcomes: Record<string, number> };
}

/** The scrape-time gauges; a figure no longer there is left out rather than kept stale. */
export function setScrapeFigures(figures: ScrapeFigures | undefined): void {
  const m = metrics();
  for (
    const gauge of [
      m.ordersInReview,
      m.ordersOpen,
      m.ordersOpenOldestAge,
      m.fxRateAge,
      m.reconcileLastRun,
      m.reconcileLastOrders,
    ]
  ) gauge.reset();
  if (!figures) return;
  m.ordersInReview.set(figures.inReview);
  for (const o of figures.open) {
    m.ordersOpen.set({ state: o.state }, o.count);
    m.ordersOpenOldestAge.set({ state: o.state }, o.oldestAgeSeconds);
  }
  if (figures.fxRateAgeSeconds !== undefined) m.fxRateAge.set(figures.fxRateAgeSeconds);
  if (figures.reconcile) {
    m.reconcileLastRun.set(figures.reconcile.endedAt.getTime() / 1000);
    for (const [outcome, n] of Object.entries(figures.reconcile.outcomes)) {
      m.reconcileLastOrders.set({ outcome }, n);
    }
  }
}

/** Whether this process is ready (what /readyz answers), as read at scrape time. */
export function setReady(ready: boolean): void {
  metrics().ready.set(ready ? 1 : 0);
}

/** One HitPay webhook as received: its version and what came of it. */
export function countHitPayWebhook(version: string, result: string): void {
  metrics().hitpayWebhooks.inc({ version, result });
}
