// Spec §2 Create Reseller and Reseller detail/edit: Details, Price Markup % (mlbb, mlbb_global and
// mlbb_special required, then one field per launched game, three per row) and, when editing, the
// Account Balance History. The balance is typed only at creation; afterwards it moves through
// Top Up and Deduct, which keep its history (the server refuses any other change). A new password
// also revokes the reseller's API keys and disables its webhook, and the confirmation
// says so.
import { useEffect, useRef, useState } from "react";
import type { JSX } from "preact";
import {
  type BalanceMoveResult,
  REQUIRED_MARKUP_KEYS,
  type ResellerDto,
} from "../../../shared/user-types.ts";
import { callApi } from "../../lib/api.ts";
import { dollarsToAmountString } from "../../lib/format.ts";
import { failureText } from "../games/draft.ts";
import { BalancePopover } from "./BalancePopover.tsx";
import { balanceMovedText } from "./ResellersTab.tsx";
import { BalanceHistory } from "../../reseller/BalanceHistory.tsx";
import { ApiKeys } from "../../reseller/ApiKeys.tsx";
import { markupField, resellerFormProblems } from "./reseller-checks.ts";

/** Spec §9: the admin's view of a reseller's balance history shows 10 rows a page. */
const ADMIN_HISTORY_PAGE_SIZE = 10;

/** What else a new password does: said before saving and in the confirmation. */
const PASSWORD_RESET_NOTE =
  "The new password signed the reseller out, revoked all its API keys and disabled its webhook.";

export interface ResellerFormProps {
  /** The reseller to edit; none for Create Reseller. */
  reseller?: ResellerDto;
  /** Returns to the Resellers list. */
  onBack: () => void;
}

interface LaunchedGame {
  name: string;
  supplierName: string;
}

/** Fields typed as text; numbers are sent as numbers (spec §5). */
interface Draft {
  name: string;
  phone: string;
  email: string;
  password: string;
  balance: string;
  remarks: string;
  disableDiscounts: boolean;
  markup: Record<string, string>;
}

function draftOf(reseller?: ResellerDto): Draft {
  return {
    name: reseller?.name ?? "",
    phone: reseller?.phone ?? "",
    email: reseller?.email ?? "",
    password: "",
    balance: reseller ? String(reseller.balance) : "",
    remarks: reseller?.remarks ?? "",
    disableDiscounts: reseller?.disableDiscounts ?? false,
    markup: Object.fromEntries(
      Object.entries(reseller?.markup ?? {}).map(([key, value]) => [key, String(value)]),
    ),
  };
}

/** The markup map to send: blank game fields are left out, so the game's own markup applies. */
function markupOf(draft: Draft): Record<string, number> {
  return Object.fromEntries(
    Object.entries(draft.markup).filter(([, value]) => value.trim() !== "")
      .map(([key, value]) => [key, Number(value)]),
  );
}

interface FieldProps extends JSX.InputHTMLAttributes<HTMLInputElement> {
  /** The field's key in the form's problems. */
  field: string;
  label: string;
  /** What is wrong with the value, shown under the field; absent when nothing is. */
  problem?: string;
}

/**
 * A labelled input with its problem under it. A required field's label is marked by CSS
 * (`.au-required`), whose asterisk stays out of the label's text and accessible name: the input's
 * own `required` says it to assistive technology.
 */
function Field({ field, label, problem, required, ...input }: FieldProps) {
  const problemId = `au-problem-${field.replace(/\W/g, "-")}`;
  return (
    <div>
      <label>
        <span class={required ? "au-required" : undefined}>{label}</span>
        <input
          {...input}
          required={required}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
        />
      </label>
      {problem && <p id={problemId} class="error au-problem">{problem}</p>}
    </div>
  );
}

export function ResellerForm({ reseller, onBack }: ResellerFormProps) {
  const editing = reseller !== undefined;
  const [draft, setDraft] = useState<Draft>(() => draftOf(reseller));
  const [games, setGames] = useState<LaunchedGame[]>([]);
  const [balance, setBalance] = useState(reseller?.balance ?? 0);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [keysVersion, setKeysVersion] = useState(0);
  const [notice, setNotice] = useState("");
  const [saving, setSaving] = useState(false);
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [refusals, setRefusals] = useState(0);
  const form = useRef<HTMLFormElement>(null);

  // After a refused submit, the first field with a problem takes the focus.
  useEffect(() => {
    if (refusals) form.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [refusals]);

  useEffect(() => {
    callApi<LaunchedGame[]>("GET", "/api/launched_games")
      .then((list) => {
        const seen = new Set<string>(["mlbb"]);
        setGames(list.filter((g) => !seen.has(g.supplierName) && seen.add(g.supplierName)));
      })
      .catch((error) => {
        console.error(error);
        alert(failureText("get games", error));
      });
  }, []);

  /** Drops a field's problem once it is edited. */
  const clearProblem = (field: string) => {
    if (!problems.has(field)) return;
    const rest = new Map(problems);
    rest.delete(field);
    setProblems(rest);
  };
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setNotice("");
    clearProblem(key);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const setMarkup = (key: string, value: string) => {
    setNotice("");
    clearProblem(markupField(key));
    setDraft((d) => ({ ...d, markup: { ...d.markup, [key]: value } }));
  };

  const moved = (result: BalanceMoveResult) => {
    setBalance(result.newBalance);
    setHistoryVersion((v) => v + 1);
    setNotice(balanceMovedText(draft.name, result));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = resellerFormProblems(draft, editing);
    setProblems(found);
    if (found.size) {
      setRefusals((n) => n + 1);
      return;
    }
    setSaving(true);
    const details = {
      name: draft.name,
      phone: draft.phone,
      email: draft.email,
      markup: markupOf(draft),
      remarks: draft.remarks,
      disableDiscounts: draft.disableDiscounts,
    };
    try {
      if (editing) {
        // No balance: it is read-only here, and an order placed since this screen opened would
        // make the one it shows stale (the server refuses a balance that differs).
        await callApi("PUT", `/api/reseller/${encodeURIComponent(reseller._id)}`, {
          ...details,
          password: draft.password,
        });
        setDraft((d) => ({ ...d, password: "" }));
        if (draft.password) {
          setNotice(`Reseller saved. ${PASSWORD_RESET_NOTE}`);
          setKeysVersion((v) => v + 1);
        } else setNotice("Reseller saved.");
      } else {
        await callApi("POST", "/api/reseller", {
          ...details,
          password: draft.password,
          balance: Number(draft.balance || 0),
          rank: "Reseller",
        });
        onBack();
      }
    } catch (error) {
      console.error(error);
      alert(failureText(editing ? "edit reseller" : "create reseller", error));
    } finally {
      setSaving(false);
    }
  };

  const title = editing ? reseller.name : "Create New Reseller";
  return (
    <section>
      {/* Not a <nav>: the console styles every nav inside its shell as the side menu. */}
      <div class="ag-breadcrumb" role="navigation" aria-label="Breadcrumb">
        <button type="button" class="ag-link" onClick={onBack}>Resellers</button>
        <span aria-hidden="true">›</span>
        <span aria-current="page">{title}</span>
      </div>
      <form ref={form} class="panel au-form" noValidate onSubmit={submit}>
        <h2>Details</h2>
        <p class="muted au-legend">
          <span class="au-required" aria-hidden="true" /> required
        </p>
        <div class="ag-grid">
          <Field
            field="name"
            label="Name"
            type="text"
            required
            problem={problems.get("name")}
            value={draft.name}
            onInput={(e) => set("name", e.currentTarget.value)}
          />
          <Field
            field="phone"
            label="Phone"
            type="tel"
            value={draft.phone}
            onInput={(e) => set("phone", e.currentTarget.value)}
          />
          <Field
            field="email"
            label="Email"
            type="email"
            required
            problem={problems.get("email")}
            value={draft.email}
            onInput={(e) => set("email", e.currentTarget.value)}
          />
          <Field
            field="password"
            label="Password"
            type="password"
            autoComplete="new-password"
            required={!editing}
            minLength={8}
            placeholder={editing ? "Unchanged" : undefined}
            problem={problems.get("password")}
            value={draft.password}
            onInput={(e) => set("password", e.currentTarget.value)}
          />
          {editing && draft.password && (
            <p class="muted ag-wide" role="note">
              Saving a new password signs the reseller out, revokes all its API keys and disables
              its webhook.
            </p>
          )}
          {editing
            ? (
              <div class="au-field">
                <span>Balance</span>
                <span class="au-balance">
                  <output class="au-amount" aria-label="Balance">
                    {dollarsToAmountString(balance)}
                  </output>
                  <BalancePopover
                    resellerId={reseller._id}
                    resellerName={reseller.name}
                    kind="top_up"
                    onMoved={moved}
                    onSend={() => setNotice("")}
                  />
                  <BalancePopover
                    resellerId={reseller._id}
                    resellerName={reseller.name}
                    kind="deduct"
                    onMoved={moved}
                    onSend={() => setNotice("")}
                  />
                </span>
              </div>
            )
            : (
              <Field
                field="balance"
                label="Balance"
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                problem={problems.get("balance")}
                value={draft.balance}
                onInput={(e) => set("balance", e.currentTarget.value)}
              />
            )}
          <label class="ag-wide">
            Remarks
            <textarea
              rows={3}
              value={draft.remarks}
              onInput={(e) => set("remarks", e.currentTarget.value)}
            />
          </label>
          <label class="ag-check">
            <input
              type="checkbox"
              checked={draft.disableDiscounts}
              onChange={(e) => set("disableDiscounts", e.currentTarget.checked)}
            />
            Disable Discounts
          </label>
        </div>

        <h2>Price Markup %</h2>
        <div class="ag-three">
          {[
            ...REQUIRED_MARKUP_KEYS.map((key) => ({ key, label: key, required: true })),
            ...games.map((g) => ({ key: g.supplierName, label: g.name, required: false })),
          ].map(({ key, label, required }) => (
            <Field
              key={key}
              field={markupField(key)}
              label={label}
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              required={required}
              problem={problems.get(markupField(key))}
              value={draft.markup[key] ?? ""}
              onInput={(e) => setMarkup(key, e.currentTarget.value)}
            />
          ))}
        </div>

        <div class="ag-actions">
          {notice && <p class="au-banner" role="status">{notice}</p>}
          <button type="button" class="btn-secondary" onClick={onBack}>Back</button>
          <button type="submit" class="btn" disabled={saving}>
            {editing ? "Save" : "Create Reseller"}
          </button>
        </div>
      </form>
      {editing && (
        <BalanceHistory
          resellerId={reseller._id}
          pageSize={ADMIN_HISTORY_PAGE_SIZE}
          version={historyVersion}
        />
      )}
      {editing && (
        <ApiKeys
          listPath={`/api/reseller/${reseller._id}/api_keys`}
          canCreate={false}
          canRevokeAll
          version={keysVersion}
        />
      )}
    </section>
  );
}
