// Spec §2 Users › Consumers: search and delete (with a confirmation); a row click does nothing.
// The storefront may have many buyers, so the server searches and pages (20 a page).
import { useEffect, useState } from "react";
import type { ConsumerDto, ConsumersPage } from "../../../shared/user-types.ts";
import { callApi } from "../../lib/api.ts";
import { ConfirmDialog } from "../../lib/ConfirmDialog.tsx";
import { formatDate } from "../../lib/order-format.ts";
import { Pagination } from "../../lib/Pagination.tsx";
import { failureText } from "../games/draft.ts";
import { DeleteButton } from "./DeleteButton.tsx";

export function ConsumersTab() {
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<ConsumersPage | null>(null);
  const [deleting, setDeleting] = useState<ConsumerDto | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const query = new URLSearchParams({ search: search.trim(), page: String(page) });
    const timer = setTimeout(() => {
      callApi<ConsumersPage>("GET", `/api/consumers?${query}`)
        .then(setData)
        .catch((error) => {
          console.error(error);
          alert(failureText("get consumers", error));
        });
    }, 250);
    return () => clearTimeout(timer);
  }, [search, page, version]);

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await callApi("DELETE", `/api/user/${encodeURIComponent(deleting._id)}`);
      setVersion((v) => v + 1);
    } catch (error) {
      console.error(error);
      alert(failureText("delete user", error));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div>
      <h2>Consumers</h2>
      <input
        type="search"
        class="au-search"
        placeholder="Search consumer..."
        aria-label="Search consumer"
        value={search}
        onInput={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      {data === null ? <p class="muted">Loading...</p> : (
        <>
          <div class="ag-scroll" tabIndex={0} role="region" aria-label="Consumers">
            <table class="ag-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Email</th>
                  <th>Phone</th>
                  <th>Date Added</th>
                  <th>
                    <span class="au-sr">Delete</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.consumers.map((c) => (
                  <tr key={c._id}>
                    <td>{c.name}</td>
                    <td>{c.email}</td>
                    <td>{c.phone}</td>
                    <td class="au-nowrap">{formatDate(c.createdAt)}</td>
                    <td class="au-actions">
                      <DeleteButton name={c.name} onClick={() => setDeleting(c)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.consumers.length === 0 && <p class="muted">No consumers found</p>}
          <Pagination page={page} pageCount={pageCount} onPage={setPage} />
        </>
      )}
      {deleting && (
        <ConfirmDialog
          message={`Delete consumer '${deleting.name}'?`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
