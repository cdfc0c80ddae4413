// The audit log (ours, not in the spec): who changed what, when, with the target before and
// after. Superadmins only; the server answers anyone else 403 and this view shows that text.
import { useEffect, useState } from "react";
import type { AuditEntryDto, AuditPage } from "../../shared/admin-types.ts";
import { ApiError, callApi } from "../lib/api.ts";
import { Pagination } from "../lib/Pagination.tsx";
import { formatDate } from "../lib/order-format.ts";
import { auditChangeLines } from "../lib/audit-changes.ts";
import { auditActionLabel } from "../../shared/audit-actions.ts";
import { errorText } from "./games/draft.ts";
import type { AdminViewProps } from "./types.ts";
import "../../styles/admin-games.css";
import "../../styles/admin-people.css";
import "../../styles/reseller.css";

export type AuditViewProps = AdminViewProps;

type Filter = { actor: string; action: string; target: string };
const FILTERS: { key: keyof Filter; label: string }[] = [
  { key: "actor", label: "Actor" },
  { key: "action", label: "Action" },
  { key: "target", label: "Target" },
];

/** A UUID's first block is enough to tell rows apart on screen; the full id is its title. */
function shortId(id: string): string {
  return /^[0-9a-f]{8}-/.test(id) ? `#${id.slice(0, 8)}` : id;
}

function Change({ entry }: { entry: AuditEntryDto }) {
  return (
    <ul class="ap-change">
      {auditChangeLines(entry.before, entry.after).map((line) => <li key={line}>{line}</li>)}
    </ul>
  );
}

/** What happened, in words, with the action's code (what the CLI's --action takes) under it. */
function Action({ action }: { action: string }) {
  return (
    <>
      {auditActionLabel(action)}
      <code class="ap-action-code">{action}</code>
    </>
  );
}

function target(e: AuditEntryDto) {
  return (
    <>
      {e.targetType}
      {e.targetId && <span class="muted" title={e.targetId}>{shortId(e.targetId)}</span>}
    </>
  );
}

/** Narrow screens: one card per entry instead of a five-column table. */
function AuditCards({ entries }: { entries: AuditEntryDto[] }) {
  return (
    <ul class="ap-audit-cards">
      {entries.map((e) => (
        <li key={e.id} class="panel">
          <p class="muted">{formatDate(e.at)} · {e.actorName || e.actorId || e.actorType}</p>
          <p>
            <strong>
              <Action action={e.action} />
            </strong>{" "}
            <span class="ap-wrap">{target(e)}</span>
          </p>
          <Change entry={e} />
        </li>
      ))}
    </ul>
  );
}

export default function AuditView({ mobile }: AuditViewProps) {
  const [filter, setFilter] = useState<Filter>({ actor: "", action: "", target: "" });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<AuditPage | null>(null);
  const [failure, setFailure] = useState("");

  useEffect(() => {
    const query = new URLSearchParams({ page: String(page) });
    for (const { key } of FILTERS) if (filter[key].trim()) query.set(key, filter[key].trim());
    callApi<AuditPage>("GET", `/api/audit_log?${query}`)
      .then((d) => {
        setData(d);
        setFailure("");
      })
      .catch((error) => {
        console.error(error);
        setFailure(
          error instanceof ApiError && error.status === 403
            ? error.message
            : `Failed to load the audit log. Error: ${errorText(error)}`,
        );
      });
  }, [filter, page]);

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section aria-label="Audit">
      <h2>Audit</h2>
      <div class="ap-filters">
        {FILTERS.map(({ key, label }) => (
          <div key={key}>
            <label for={`ap-audit-${key}`}>{label}</label>
            <input
              id={`ap-audit-${key}`}
              type="search"
              value={filter[key]}
              onInput={(e) => {
                setFilter({ ...filter, [key]: e.currentTarget.value });
                setPage(1);
              }}
            />
          </div>
        ))}
      </div>
      {failure && <p class="ap-banner" role="alert">{failure}</p>}
      {data === null
        ? (!failure && <p class="muted">Loading...</p>)
        : data.entries.length === 0
        ? <p class="muted">No entries</p>
        : mobile
        ? <AuditCards entries={data.entries} />
        : (
          <div class="ag-scroll" tabIndex={0} role="region" aria-label="Log entries">
            <table class="ag-table ap-audit">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Actor</th>
                  <th>Action</th>
                  <th>Target</th>
                  <th>Change</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id}>
                    <td class="ap-nowrap">{formatDate(e.at)}</td>
                    <td>{e.actorName || e.actorId || e.actorType}</td>
                    <td class="ap-action">
                      <Action action={e.action} />
                    </td>
                    <td class="ap-target">{target(e)}</td>
                    <td>
                      <Change entry={e} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <Pagination page={page} pageCount={pageCount} onPage={setPage} />
    </section>
  );
}
