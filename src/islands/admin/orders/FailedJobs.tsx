// Admin → Orders → Needs review, below the queue: the jobs other than an order's (mail, reseller
// webhooks) that used their last attempt, latest first. They never run again on their own; an
// admin retries one once its cause (an SMTP outage, a receiver down) is fixed.
import { useState } from "react";
import type { FailedJobDto } from "../../../shared/order-types.ts";
import { callApi } from "../../lib/api.ts";
import { LoadFailed } from "../../lib/LoadFailed.tsx";
import { failureText, formatDate } from "../../lib/order-format.ts";
import { useLoad } from "../../lib/use-load.ts";
import { StackCell } from "./StackCell.tsx";

async function fetchFailedJobs(): Promise<FailedJobDto[]> {
  return (await callApi<{ jobs: FailedJobDto[] }>("GET", "/api/jobs/failed")).jobs;
}

export function FailedJobs() {
  const jobs = useLoad(fetchFailedJobs, "failed-jobs", "get failed jobs");
  const [retrying, setRetrying] = useState<number | null>(null);

  const retry = async (job: FailedJobDto) => {
    setRetrying(job.id);
    try {
      await callApi("POST", `/api/jobs/${job.id}/retry`);
    } catch (error) {
      console.error(error);
      alert(failureText("retry job", error));
    }
    setRetrying(null);
    jobs.reload();
  };

  return (
    <section class="ao-failed" aria-labelledby="ao-failed-title">
      <h3 id="ao-failed-title">Failed jobs</h3>
      {jobs.state === "loading"
        ? (
          <p class="muted" role="status">
            <span class="rs-spinner" aria-hidden="true" />Loading...
          </p>
        )
        : jobs.state === "failed"
        ? <LoadFailed message={jobs.message} onRetry={jobs.reload} />
        : jobs.value.length === 0
        ? <p class="muted">No failed jobs.</p>
        : (
          <table class="rs-table ao-stack ao-jobs">
            <thead>
              <tr>
                <th>Kind</th>
                <th>Subject</th>
                <th>Attempts</th>
                <th>Last Error</th>
                <th>Failed At</th>
                <th>Action</th>
              </tr>
            </thead>
            <tbody>
              {jobs.value.map((job) => (
                <tr key={job.id} class="ao-card" data-job-id={job.id}>
                  <StackCell label="Kind" class="rs-nowrap">{job.kind}</StackCell>
                  <StackCell label="Subject">{job.subject || "-"}</StackCell>
                  <StackCell label="Attempts">{job.attempts}</StackCell>
                  <StackCell label="Last Error" class="ao-answer">{job.lastError || "-"}</StackCell>
                  <StackCell label="Failed At" class="rs-nowrap">
                    {formatDate(job.failedAt)}
                  </StackCell>
                  <td>
                    <button
                      type="button"
                      class="btn-secondary au-small rs-nowrap"
                      disabled={retrying !== null}
                      aria-busy={retrying === job.id}
                      onClick={() => retry(job)}
                    >
                      {retrying === job.id && <span class="rs-spinner" aria-hidden="true" />}
                      Retry
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  );
}
