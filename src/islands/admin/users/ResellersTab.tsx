// Spec §2 Users › Resellers: search, Create New Reseller, Name / Email / Balance with the top-up
// and deduct popovers, delete with its confirmation; a row opens the reseller's edit screen. On a
// phone each row stacks (admin-users.css), so name, balance buttons and Delete all fit the screen.
import { useEffect, useState } from "react";
import {
  type BalanceMoveResult,
  matchesSearch,
  type ResellerDto,
} from "../../../shared/user-types.ts";
import { callApi } from "../../lib/api.ts";
import { dollarsToAmountString, dollarsToDollarString } from "../../lib/format.ts";
import { ConfirmDialog } from "../../lib/ConfirmDialog.tsx";
import { failureText } from "../games/draft.ts";
import { DeleteButton } from "./DeleteButton.tsx";
import { BalancePopover } from "./BalancePopover.tsx";

export interface ResellersTabProps {
  /** Opens the Create Reseller screen. */
  onCreate: () => void;
  /** Opens a reseller's edit screen. */
  onEdit: (reseller: ResellerDto) => void;
}

/** The success banner after a top-up or a deduction. */
export function balanceMovedText(name: string, result: BalanceMoveResult): string {
  const amount = dollarsToDollarString(result.amount);
  const balance = dollarsToDollarString(result.newBalance);
  return result.type === "top_up"
    ? `Successfully topped up ${amount} for ${name}. New balance: ${balance}`
    : `Successfully deducted ${amount} from ${name}. New balance: ${balance}`;
}

export function ResellersTab({ onCreate, onEdit }: ResellersTabProps) {
  const [resellers, setResellers] = useState<ResellerDto[] | null>(null);
  const [search, setSearch] = useState("");
  const [banner, setBanner] = useState("");
  const [deleting, setDeleting] = useState<ResellerDto | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    callApi<ResellerDto[]>("GET", "/api/resellers")
      .then(setResellers)
      .catch((error) => {
        console.error(error);
        alert(failureText("get resellers", error));
        setResellers([]);
      });
  useEffect(() => void load(), []);

  const moved = (reseller: ResellerDto, result: BalanceMoveResult) => {
    setResellers((list) =>
      list?.map((r) => r._id === reseller._id ? { ...r, balance: result.newBalance } : r) ?? null
    );
    setBanner(balanceMovedText(reseller.name, result));
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await callApi("DELETE", `/api/reseller/${encodeURIComponent(deleting._id)}`);
      setResellers((list) => list?.filter((r) => r._id !== deleting._id) ?? null);
    } catch (error) {
      console.error(error);
      alert(failureText("delete reseller", error));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  const shown = resellers?.filter((r) => matchesSearch([r.name, r.email, r.phone], search)) ?? [];
  return (
    <div>
      <div class="ag-heading">
        <h2>Resellers</h2>
        <button type="button" class="btn" onClick={onCreate}>Create New Reseller</button>
      </div>
      <input
        type="search"
        class="au-search"
        placeholder="Search reseller..."
        aria-label="Search reseller"
        value={search}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      {banner && <p class="au-banner" role="status">{banner}</p>}
      {resellers === null
        ? <p class="muted">Loading...</p>
        : (
          <div class="ag-scroll au-resellers" tabIndex={0} role="region" aria-label="Resellers">
            <table class="ag-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Email</th>
                  <th>Balance</th>
                  <th>
                    <span class="au-sr">Delete</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr
                    key={r._id}
                    class="ag-clickable"
                    tabIndex={0}
                    onClick={() => onEdit(r)}
                    onKeyDown={(e) =>
                      e.key === "Enter" && e.target === e.currentTarget && onEdit(r)}
                  >
                    <td class="au-name">{r.name}</td>
                    <td class="au-email">{r.email}</td>
                    <td class="au-balance-cell" data-label="Balance">
                      <span class="au-balance">
                        <span class="au-amount">{dollarsToAmountString(r.balance)}</span>
                        <BalancePopover
                          resellerId={r._id}
                          resellerName={r.name}
                          kind="top_up"
                          onMoved={(result) => moved(r, result)}
                          onSend={() => setBanner("")}
                        />
                        <BalancePopover
                          resellerId={r._id}
                          resellerName={r.name}
                          kind="deduct"
                          onMoved={(result) => moved(r, result)}
                          onSend={() => setBanner("")}
                        />
                      </span>
                    </td>
                    <td class="au-actions">
                      <DeleteButton name={r.name} onClick={() => setDeleting(r)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {deleting && (
        <ConfirmDialog
          message={`Delete reseller '${deleting.name}'?`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
