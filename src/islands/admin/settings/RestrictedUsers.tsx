// Spec §2 Settings › 'Restricted Users for mlbb Package', §5: Add New / Cancel, the form (User ID,
// Server ID, both required), sortable columns, delete with confirmation, 20 a page, and the red
// banner for a duplicate. The server refuses duplicates too (unique index), so two admins adding
// the same account at once make one row.
import { useEffect, useState } from "react";
import { restrictedDuplicateMessage, type RestrictedUserDto } from "../../../shared/admin-types.ts";
import { ApiError, callApi } from "../../lib/api.ts";
import { ConfirmDialog } from "../../lib/ConfirmDialog.tsx";
import { Pagination } from "../../lib/Pagination.tsx";
import { formatDate } from "../../lib/order-format.ts";
import { failureText } from "../games/draft.ts";
import "../../../styles/reseller.css";

/** Spec §9: restricted users 20 a page. */
export const RESTRICTED_PAGE_SIZE = 20;

type Column = "userID" | "serverID" | "createdAt" | "createdBy";
const COLUMNS: { key: Column; label: string }[] = [
  { key: "userID", label: "User ID" },
  { key: "serverID", label: "Server ID" },
  { key: "createdAt", label: "Date Added" },
  { key: "createdBy", label: "Added By" },
];

/** Spec §4 sorting: a new column sorts ascending, the same column flips the direction. */
function sortRows(rows: RestrictedUserDto[], by: Column, asc: boolean): RestrictedUserDto[] {
  const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
  const sorted = [...rows].sort((a, b) => collator.compare(a[by], b[by]));
  return asc ? sorted : sorted.reverse();
}

/** `rows`: the list as loaded; a refusal's banner goes once it changes (its row deleted). */
function AddForm({ onAdded, rows }: { onAdded: () => void; rows: RestrictedUserDto[] | null }) {
  const [userID, setUserID] = useState("");
  const [serverID, setServerID] = useState("");
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState("");
  useEffect(() => setBanner(""), [rows]);

  const save = async (e: Event) => {
    e.preventDefault();
    // Spec §5: adding does nothing if either ID is empty.
    if (!userID.trim() || !serverID.trim()) return;
    setBusy(true);
    setBanner("");
    try {
      await callApi("POST", "/api/restricted_mlbb_user", { userID, serverID });
      setUserID("");
      setServerID("");
      onAdded();
    } catch (error) {
      const body = error instanceof ApiError ? error.body as Partial<RestrictedUserDto> : {};
      if (error instanceof ApiError && error.status === 409 && body.createdAt && body.createdBy) {
        // The date in this browser's time zone, as the list shows it.
        setBanner(restrictedDuplicateMessage(formatDate(body.createdAt), body.createdBy));
      } else {
        console.error(error);
        alert("Fail to save restricted user");
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="ap-restricted-form" onSubmit={save} aria-label="Add restricted user">
      {banner && <p class="ap-banner" role="alert">{banner}</p>}
      <div class="ap-inline">
        <div>
          <label for="ap-user-id">User ID</label>
          <input
            id="ap-user-id"
            required
            inputMode="numeric"
            maxLength={32}
            value={userID}
            onInput={(e) => {
              setUserID(e.currentTarget.value);
              setBanner("");
            }}
          />
        </div>
        <div>
          <label for="ap-server-id">Server ID</label>
          <input
            id="ap-server-id"
            required
            inputMode="numeric"
            maxLength={32}
            value={serverID}
            onInput={(e) => {
              setServerID(e.currentTarget.value);
              setBanner("");
            }}
          />
        </div>
        <button type="submit" class="btn" disabled={busy}>Save</button>
      </div>
    </form>
  );
}

export function RestrictedUsers() {
  const [rows, setRows] = useState<RestrictedUserDto[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [sort, setSort] = useState<{ by: Column; asc: boolean }>({ by: "createdAt", asc: false });
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<RestrictedUserDto | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    callApi<RestrictedUserDto[]>("GET", "/api/restricted_mlbb_users")
      .then(setRows)
      .catch((error) => {
        console.error(error);
        alert("Fail to get restricted users, please try again.");
        setRows([]);
      });
  useEffect(() => {
    load();
  }, []);

  const remove = async () => {
    setBusy(true);
    try {
      await callApi("DELETE", `/api/restricted_mlbb_user/${deleting!._id}`);
      setDeleting(null);
      await load();
    } catch (error) {
      console.error(error);
      alert(failureText("delete restricted user", error));
    } finally {
      setBusy(false);
    }
  };

  const sorted = rows ? sortRows(rows, sort.by, sort.asc) : [];
  const pageCount = Math.max(1, Math.ceil(sorted.length / RESTRICTED_PAGE_SIZE));
  const shown = Math.min(page, pageCount);
  const visible = sorted.slice((shown - 1) * RESTRICTED_PAGE_SIZE, shown * RESTRICTED_PAGE_SIZE);
  const sortBy = (by: Column) =>
    setSort(sort.by === by ? { by, asc: !sort.asc } : { by, asc: true });

  return (
    <div class="panel ap-section" aria-labelledby="ap-restricted-heading">
      <div class="ag-heading">
        <h3 id="ap-restricted-heading">Restricted Users for mlbb Package</h3>
        <button type="button" class="btn-secondary" onClick={() => setAdding(!adding)}>
          {adding ? "Cancel" : "Add New"}
        </button>
      </div>
      {adding && (
        <AddForm
          rows={rows}
          onAdded={() => {
            setAdding(false);
            load();
          }}
        />
      )}
      {rows === null
        ? <p class="muted">Loading...</p>
        : (
          <div class="ag-scroll" tabIndex={0} role="region" aria-label="Restricted users">
            <table class="ag-table ap-restricted">
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th
                      key={c.key}
                      aria-sort={sort.by === c.key
                        ? (sort.asc ? "ascending" : "descending")
                        : undefined}
                    >
                      <button type="button" class="ap-sort" onClick={() => sortBy(c.key)}>
                        {c.label}
                        <span aria-hidden="true">
                          {sort.by === c.key ? (sort.asc ? " ▲" : " ▼") : ""}
                        </span>
                      </button>
                    </th>
                  ))}
                  <th class="ap-cell-action">
                    <span class="ap-visually-hidden">Delete</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {visible.length === 0 && (
                  <tr>
                    <td colSpan={COLUMNS.length + 1} class="muted">No restricted users</td>
                  </tr>
                )}
                {visible.map((r) => (
                  <tr key={r._id}>
                    <td>{r.userID}</td>
                    <td>{r.serverID}</td>
                    <td class="ap-nowrap">{formatDate(r.createdAt)}</td>
                    <td>{r.createdBy}</td>
                    <td class="ap-cell-action">
                      <button
                        type="button"
                        class="ap-delete"
                        aria-label={`Delete restricted user ${r.userID} (${r.serverID})`}
                        onClick={() => setDeleting(r)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <Pagination page={shown} pageCount={pageCount} onPage={setPage} />
      {deleting && (
        <ConfirmDialog
          message={`Delete restricted user: ${deleting.userID} (${deleting.serverID})?`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
