// Spec §2 Users › Admins: search by name, email or role; columns Name, Email, Role and a delete
// button; 'Create New Admin' and a row open the admin form (Name, Rank, Email, Password, Remarks).
// The superadmin rank is read-only; the server enforces every rank rule (README "Ranks").
import { useEffect, useState } from "react";
import { ADMIN_RANKS, type AdminDto, isSuperadminRank } from "../../../shared/admin-types.ts";
import { callApi } from "../../lib/api.ts";
import { ConfirmDialog } from "../../lib/ConfirmDialog.tsx";
import { failureText } from "../games/draft.ts";
import "../../../styles/admin-games.css";
import "../../../styles/admin-people.css";

export interface AdminsTabProps {
  /** True when the window is 760 px wide or less. */
  mobile: boolean;
}

interface FormState {
  name: string;
  rank: string;
  email: string;
  password: string;
  remarks: string;
}

const EMPTY: FormState = { name: "", rank: "Admin", email: "", password: "", remarks: "" };

interface AdminFormProps {
  /** The admin being edited; absent for Create New Admin. */
  editing?: AdminDto;
  /** The signed-in admin may grant superadmin only when it is one. */
  canGrantSuperadmin: boolean;
  /** True when the signed-in admin edits themselves: nobody changes their own rank. */
  self: boolean;
  onDone: () => void;
}

function AdminForm({ editing, canGrantSuperadmin, self, onDone }: AdminFormProps) {
  const [form, setForm] = useState<FormState>(
    editing ? { ...editing, password: "" } : EMPTY,
  );
  // An admin changing their own password types the current one too.
  const [currentPassword, setCurrentPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (key: keyof FormState) => (e: Event) =>
    setForm({ ...form, [key]: (e.currentTarget as HTMLInputElement).value });
  const rankReadOnly = self || (editing !== undefined && isSuperadminRank(editing.rank));
  const ranks = ADMIN_RANKS.filter((r) => canGrantSuperadmin || !isSuperadminRank(r));

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      if (editing) {
        await callApi(
          "PUT",
          `/api/admin/${editing._id}`,
          self ? { ...form, currentPassword } : form,
        );
      } else await callApi("POST", "/api/user", form);
      onDone();
    } catch (error) {
      console.error(error);
      alert(failureText(editing ? "edit admin" : "create admin", error));
    } finally {
      setBusy(false);
    }
  };

  const title = editing ? editing.name : "Create New Admin";
  return (
    <section class="ag-create ap-form">
      <nav class="ag-breadcrumb" aria-label="Breadcrumb">
        <button type="button" class="ag-link" onClick={onDone}>Admins</button>
        <span aria-hidden="true">&gt;</span>
        <span aria-current="page">{title}</span>
      </nav>
      <form onSubmit={submit}>
        <label for="ap-name">Name</label>
        <input id="ap-name" required maxLength={200} value={form.name} onInput={set("name")} />
        <label for="ap-rank">Rank</label>
        {rankReadOnly
          ? <input id="ap-rank" value={form.rank} readOnly class="ag-readonly" />
          : (
            <select id="ap-rank" value={form.rank} onChange={set("rank")}>
              {ranks.map((r) => <option key={r} value={r}>{r}</option>)}
            </select>
          )}
        <label for="ap-email">Email</label>
        <input
          id="ap-email"
          type="email"
          required
          maxLength={320}
          value={form.email}
          onInput={set("email")}
        />
        <label for="ap-password">Password</label>
        <input
          id="ap-password"
          type="password"
          autoComplete="new-password"
          required={!editing}
          minLength={8}
          placeholder={editing ? "Leave blank to keep the current password" : ""}
          value={form.password}
          onInput={set("password")}
        />
        {self && (
          <>
            <label for="ap-current-password">Current Password</label>
            <input
              id="ap-current-password"
              type="password"
              autoComplete="current-password"
              required={form.password !== ""}
              placeholder="Needed to change your own password"
              value={currentPassword}
              onInput={(e) => setCurrentPassword(e.currentTarget.value)}
            />
          </>
        )}
        <label for="ap-remarks">Remarks</label>
        <textarea id="ap-remarks" rows={3} value={form.remarks} onInput={set("remarks")} />
        <div class="ag-actions">
          <button type="button" class="btn-secondary" onClick={onDone}>Back</button>
          <button type="submit" class="btn" disabled={busy}>
            {editing ? "Save" : "Create Admin"}
          </button>
        </div>
      </form>
    </section>
  );
}

export function AdminsTab({ mobile }: AdminsTabProps) {
  const [search, setSearch] = useState("");
  const [admins, setAdmins] = useState<AdminDto[] | null>(null);
  const [me, setMe] = useState<AdminDto | null>(null);
  const [screen, setScreen] = useState<"list" | "new" | AdminDto>("list");
  const [deleting, setDeleting] = useState<AdminDto | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    callApi<AdminDto[]>("GET", `/api/admins?search=${encodeURIComponent(search)}`)
      .then(setAdmins)
      .catch((error) => {
        console.error(error);
        alert(failureText("get admins", error));
        setAdmins([]);
      });

  useEffect(() => {
    callApi<{ user: AdminDto }>("GET", "/api/current_user").then((r) => setMe(r.user))
      .catch(console.error);
  }, []);
  useEffect(() => {
    if (screen === "list") load();
  }, [search, screen]);

  const remove = async () => {
    setBusy(true);
    try {
      await callApi("DELETE", `/api/admin/${deleting!._id}`);
      setDeleting(null);
      await load();
    } catch (error) {
      console.error(error);
      alert(failureText("delete admin", error));
    } finally {
      setBusy(false);
    }
  };

  if (screen !== "list") {
    return (
      <AdminForm
        editing={screen === "new" ? undefined : screen}
        canGrantSuperadmin={!!me && isSuperadminRank(me.rank)}
        self={screen !== "new" && screen._id === me?._id}
        onDone={() => setScreen("list")}
      />
    );
  }
  return (
    <section>
      <div class="ag-heading">
        <h2>Admins</h2>
        <button type="button" class="btn" onClick={() => setScreen("new")}>
          Create New Admin
        </button>
      </div>
      <input
        type="search"
        class="ap-search"
        aria-label="Search admins by name, email or role"
        placeholder="Search admin..."
        value={search}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      {admins === null
        ? <p class="muted">Loading...</p>
        : (
          <div class="ag-scroll" tabIndex={0} role="region" aria-label="Admins">
            <table class={mobile ? "ag-table ap-compact" : "ag-table"}>
              <thead>
                <tr>
                  <th>Name</th>
                  {!mobile && <th>Email</th>}
                  <th>Role</th>
                  <th class="ap-cell-action">
                    <span class="ap-visually-hidden">Delete</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {admins.map((a) => (
                  <tr
                    key={a._id}
                    class="ag-clickable"
                    tabIndex={0}
                    onClick={() => setScreen(a)}
                    onKeyDown={(e) => e.key === "Enter" && setScreen(a)}
                  >
                    {mobile
                      ? (
                        // Narrow screens: the email under the name, so Role and Delete stay in view.
                        <td class="ap-wrap ap-person">
                          {a.name}
                          <span class="muted">{a.email}</span>
                        </td>
                      )
                      : (
                        <>
                          <td>{a.name}</td>
                          <td class="ap-wrap">{a.email}</td>
                        </>
                      )}
                    <td>{a.rank}</td>
                    <td class="ap-cell-action">
                      {me?._id !== a._id && (
                        <button
                          type="button"
                          class="ap-delete"
                          aria-label={`Delete admin ${a.name}`}
                          onClick={(e) => {
                            e.stopPropagation();
                            setDeleting(a);
                          }}
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {deleting && (
        <ConfirmDialog
          message={`Delete admin '${deleting.name}'?`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
