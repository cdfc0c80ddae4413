// Admin → Operations (ours, not the spec's): how the running system is doing, from
// GET /api/admin/operations, the view `cli status` prints: readiness, the job queue per kind, the
// Needs review queue, failed jobs (with their Retry), the suppliers' balances and the latest
// alerts emailed to the admins.
import type { OperationsStatusDto, ReadinessDto } from "../../shared/operations-types.ts";
import { ageText } from "../../shared/age-text.ts";
import { callApi } from "../lib/api.ts";
import { CheckIcon, CrossIcon, RefreshIcon } from "../lib/icons.tsx";
import { LoadFailed } from "../lib/LoadFailed.tsx";
import { formatDate } from "../lib/order-format.ts";
import { useLoad } from "../lib/use-load.ts";
import { FailedJobs } from "./orders/FailedJobs.tsx";
import { SupplierBalanceCards } from "./operations/SupplierBalanceCards.tsx";
import type { AdminViewProps } from "./types.ts";
import "../../styles/admin-games.css";
import "../../styles/admin-orders.css";
import "../../styles/orders-table.css";
import "../../styles/admin-dashboard.css";
import "../../styles/admin-operations.css";

export type OperationsViewProps = AdminViewProps;

const fetchStatus = () => callApi<OperationsStatusDto>("GET", "/api/admin/operations");

function Readiness({ readiness }: { readiness: ReadinessDto | null }) {
  if (!readiness) return <p class="muted">This server does not report its readiness here.</p>;
  return (
    <ul class="op-checks">
      {readiness.checks.map((check) => (
        <li key={check.name} class={check.ok ? "op-ok" : "op-bad"}>
          {check.ok ? <CheckIcon label="OK" /> : <CrossIcon label="Failing" />}
          <span>{check.name}</span>
          {check.detail && <span class="muted">{check.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

function Summary({ status }: { status: OperationsStatusDto }) {
  const over = status.backlog > status.backlogLimit;
  const ready = status.readiness?.ready;
  return (
    <div class="db-cards op-cards">
      <div class={ready === false ? "db-card op-card-bad" : "db-card"}>
        <span>Readiness</span>
        <strong>{ready === undefined ? "-" : ready ? "Ready" : "Not ready"}</strong>
      </div>
      <div class={over ? "db-card op-card-bad" : "db-card"}>
        <span>Jobs due</span>
        <strong>{status.backlog.toLocaleString("en-US")}</strong>
        <span>alert above {status.backlogLimit.toLocaleString("en-US")}</span>
      </div>
      <div class={status.needsReview ? "db-card op-card-bad" : "db-card"}>
        <span>Needs review</span>
        <strong>{status.needsReview.toLocaleString("en-US")}</strong>
        <span>in Orders › Needs review</span>
      </div>
      <div class={status.failedJobs.count ? "db-card op-card-bad" : "db-card"}>
        <span>Failed jobs</span>
        <strong>{status.failedJobs.count.toLocaleString("en-US")}</strong>
      </div>
    </div>
  );
}

function JobQueue({ status }: { status: OperationsStatusDto }) {
  if (!status.jobs.length) return <p class="muted">No jobs waiting.</p>;
  return (
    <div class="ag-scroll">
      <table class="ag-table op-queue">
        <caption class="db-sr-only">Job queue per kind</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Pending</th>
            <th scope="col">Due</th>
            <th scope="col">Oldest Due</th>
          </tr>
        </thead>
        <tbody>
          {status.jobs.map((job) => (
            <tr key={job.kind}>
              <th scope="row">{job.kind}</th>
              <td>{job.pending.toLocaleString("en-US")}</td>
              <td>{job.due.toLocaleString("en-US")}</td>
              <td>{ageText(job.oldestDueSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Alerts({ status }: { status: OperationsStatusDto }) {
  if (!status.alerts.length) return <p class="muted">No alerts sent.</p>;
  return (
    <ul class="op-alerts">
      {status.alerts.map((alert) => (
        <li key={alert.id}>
          <strong>{alert.subject}</strong>
          <span class="muted">
            {formatDate(alert.sentAt)} · emailed to {alert.recipients} admin
            {alert.recipients === 1 ? "" : "s"}
          </span>
        </li>
      ))}
    </ul>
  );
}

export default function OperationsView(_props: OperationsViewProps) {
  const status = useLoad(fetchStatus, "operations", "get operations status");
  return (
    <section class="db op" aria-busy={status.state === "loading"}>
      <div class="ag-heading">
        <h2>Operations</h2>
        <button
          type="button"
          class="btn-secondary db-refresh"
          onClick={status.reload}
          aria-label="Refresh"
        >
          <RefreshIcon /> Refresh
        </button>
      </div>
      {status.state === "loading"
        ? <p class="muted" role="status">Loading...</p>
        : status.state === "failed"
        ? <LoadFailed message={status.message} onRetry={status.reload} />
        : (
          <>
            <Summary status={status.value} />
            <h3>Readiness</h3>
            <Readiness readiness={status.value.readiness} />
            <h3>Job Queue</h3>
            <JobQueue status={status.value} />
            <h3>Supplier Balances</h3>
            <SupplierBalanceCards balances={status.value.balances} />
            <h3>Recent Alerts</h3>
            <Alerts status={status.value} />
            <p class="muted op-updated">Updated {formatDate(status.value.generatedAt)}</p>
          </>
        )}
      <FailedJobs />
    </section>
  );
}
