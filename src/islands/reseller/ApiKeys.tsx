// API keys for the reseller API. On My Account a reseller names, creates (the secret is
// shown once), lists and revokes its keys; on the reseller's edit page an admin lists and revokes
// them, one or all at once.
import { useState } from "react";
import { callApi } from "../lib/api.ts";
import { failureText, formatDate } from "../lib/order-format.ts";
import { ConfirmDialog } from "../lib/ConfirmDialog.tsx";
import { useLoad } from "../lib/use-load.ts";
import { LoadFailed } from "../lib/LoadFailed.tsx";
import { CopyButton } from "../lib/CopyButton.tsx";
import type { ApiKeyDto, CreatedApiKeyDto } from "../../shared/api-key-types.ts";

export interface ApiKeysProps {
  /** GET lists the keys (and POST creates one, when `canCreate`). */
  listPath: string;
  /** Whether this viewer may issue keys (the reseller itself, not an admin). */
  canCreate: boolean;
  /** Whether this viewer may revoke every key at once (an admin: DELETE on `listPath`). */
  canRevokeAll?: boolean;
  /** Changes when the keys changed elsewhere (a password reset revokes them), to list them again. */
  version?: number;
}

function CreateKey({ listPath, onCreated }: { listPath: string; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const create = async () => {
    setBusy(true);
    try {
      const created = await callApi<CreatedApiKeyDto>("POST", listPath, { name });
      setSecret(created.secret);
      setName("");
      onCreated();
    } catch (error) {
      console.error(error);
      alert(failureText("create API key", error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form
        class="rs-inline"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <input
          aria-label="Key name"
          placeholder="Key name, e.g. My shop"
          maxLength={100}
          required
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" class="btn" disabled={busy} aria-busy={busy}>
          {busy && <span class="rs-spinner" aria-hidden="true" />}Create key
        </button>
      </form>
      {secret && (
        <div class="rs-banner rs-banner-good" role="status">
          <p>Copy this key now: it will not be shown again.</p>
          <code class="rs-secret">{secret}</code>
          <CopyButton text={secret} label="Copy key" />
        </div>
      )}
    </>
  );
}

export function ApiKeys({ listPath, canCreate, canRevokeAll = false, version = 0 }: ApiKeysProps) {
  const keys = useLoad(
    async () => (await callApi<{ keys: ApiKeyDto[] }>("GET", listPath)).keys,
    `${listPath}#${version}`,
    "get API keys",
  );
  const [revoking, setRevoking] = useState<ApiKeyDto | "all" | null>(null);
  const [busy, setBusy] = useState(false);
  const live = keys.state === "ready" ? keys.value.filter((k) => !k.revokedAt).length : 0;

  const revoke = async (path: string, action: string) => {
    setBusy(true);
    try {
      await callApi("DELETE", path);
      setRevoking(null);
      keys.reload();
    } catch (error) {
      console.error(error);
      alert(failureText(action, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="rs-api-keys" aria-label="API keys">
      <h3>API keys</h3>
      {canCreate && (
        <p class="muted">
          Keys let your own shop or bot order through the <a href="/resellers/api">reseller API</a>.
        </p>
      )}
      {canCreate && <CreateKey listPath={listPath} onCreated={keys.reload} />}
      {canRevokeAll && live > 0 && (
        <button
          type="button"
          class="btn-danger rs-revoke-all"
          onClick={() => setRevoking("all")}
        >
          Revoke all keys
        </button>
      )}
      {keys.state === "loading"
        ? <p class="muted" role="status">Loading...</p>
        : keys.state === "failed"
        ? <LoadFailed message={keys.message} onRetry={keys.reload} />
        : keys.value.length === 0
        ? <p class="muted">No API keys yet.</p>
        : (
          <div class="rs-scroll" tabIndex={0} role="region" aria-label="Keys issued">
            <table class="rs-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th>Status</th>
                </tr>
              </thead>
              <tbody>
                {keys.value.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td class="rs-nowrap">{formatDate(key.createdAt)}</td>
                    <td class="rs-nowrap">
                      {key.lastUsedAt ? formatDate(key.lastUsedAt) : "Never"}
                    </td>
                    <td>
                      {key.revokedAt
                        ? `Revoked ${formatDate(key.revokedAt)}`
                        : (
                          <button type="button" class="btn-danger" onClick={() => setRevoking(key)}>
                            Revoke
                          </button>
                        )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {revoking === "all" && (
        <ConfirmDialog
          message={live === 1
            ? "Revoke the one live API key? Programs using it stop working at once."
            : `Revoke all ${live} live API keys? Programs using them stop working at once.`}
          confirmLabel="Revoke all"
          busy={busy}
          onConfirm={() => revoke(listPath, "revoke API keys")}
          onCancel={() => setRevoking(null)}
        />
      )}
      {revoking && revoking !== "all" && (
        <ConfirmDialog
          message={`Revoke API key '${revoking.name}'? Programs using it stop working at once.`}
          confirmLabel="Revoke"
          busy={busy}
          onConfirm={() => revoke(`${listPath}/${revoking.id}`, "revoke API key")}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
