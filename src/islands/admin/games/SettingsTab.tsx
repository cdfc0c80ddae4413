// Edit game › Settings: visibility, markups, servers, codes, notes and deleting the game.
import { useEffect, useState } from "react";
import { callApi } from "../../lib/api.ts";
import { failureText, type GameDraft, type UpdateDraft } from "./draft.ts";
import { CheckboxField, NumberField, TextField } from "./fields.tsx";
import { RowListEditor } from "./RowListEditor.tsx";
import { ConfirmDialog } from "../../lib/ConfirmDialog.tsx";
import { RoutesSection } from "./RoutesSection.tsx";

export interface SettingsTabProps {
  /** The game's id, for its items' routes (saved on their own). */
  gameId: string;
  /** The game as edited so far. */
  draft: GameDraft;
  /** The game's name as last saved, for the delete confirmation. */
  savedName: string;
  /** Applies a change to the draft. */
  update: UpdateDraft;
  /** Deletes the game on the server; resolves once it is gone, rejects when it is not. */
  onDelete: () => Promise<void>;
}

/** The reseller names that can get their own markup (GET /api/resellers). */
function useResellerNames(): string[] | null {
  const [names, setNames] = useState<string[] | null>(null);
  useEffect(() => {
    callApi<{ name: string }[]>("GET", "/api/resellers")
      .then((resellers) => setNames(resellers.map((r) => r.name)))
      .catch((error) => {
        console.error(error);
        alert(failureText("get resellers", error));
        setNames([]);
      });
  }, []);
  return names;
}

function ResellerMarkups({ draft, update }: Pick<SettingsTabProps, "draft" | "update">) {
  const names = useResellerNames();
  if (names === null) return <p class="muted">Loading resellers...</p>;
  if (names.length === 0) return <p class="muted">No resellers yet.</p>;
  return (
    <div class="ag-three">
      {names.map((name) => (
        <NumberField
          key={name}
          label={name}
          value={draft.resellerMarkup[name] ?? 0}
          onChange={(percent) =>
            update({ resellerMarkup: { ...draft.resellerMarkup, [name]: percent } })}
        />
      ))}
    </div>
  );
}

export function SettingsTab({ gameId, draft, savedName, update, onDelete }: SettingsTabProps) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    setDeleting(true);
    try {
      await onDelete();
    } catch {
      setDeleting(false);
      setConfirming(false);
    }
  };

  return (
    <div class="ag-grid">
      <section>
        <h3>Visibility</h3>
        <CheckboxField
          label="Is Hidden"
          checked={draft.isHidden}
          onChange={(isHidden) => update({ isHidden })}
        />
        <CheckboxField
          label="Hidden from consumers (resellers can still buy it)"
          checked={draft.isHiddenConsumer}
          onChange={(isHiddenConsumer) => update({ isHiddenConsumer })}
        />
        <CheckboxField
          label="Is Out of Stock"
          checked={draft.isOutOfStock}
          onChange={(isOutOfStock) => update({ isOutOfStock })}
        />
        <CheckboxField
          label="Requires Server ID"
          checked={draft.requiresServerID}
          onChange={(requiresServerID) => update({ requiresServerID })}
        />
        <CheckboxField
          label="Requires Character Name"
          checked={draft.requiresCharacterName}
          onChange={(requiresCharacterName) => update({ requiresCharacterName })}
        />
        <NumberField
          label="Priority"
          integer
          value={draft.priority}
          onChange={(priority) => update({ priority })}
        />
      </section>
      <section>
        <h3>Mark up</h3>
        <NumberField
          label="Consumer Markup %"
          value={draft.consumerMarkup}
          onChange={(consumerMarkup) => update({ consumerMarkup })}
        />
        <CheckboxField
          label="Set % for individual resellers"
          checked={draft.markupForIndividualResellers}
          onChange={(markupForIndividualResellers) => update({ markupForIndividualResellers })}
        />
        {draft.markupForIndividualResellers
          ? <ResellerMarkups draft={draft} update={update} />
          : (
            <NumberField
              label="Reseller Markup %"
              value={draft.resellerMarkupAll}
              onChange={(resellerMarkupAll) => update({ resellerMarkupAll })}
            />
          )}
      </section>
      <div class="ag-wide">
        <RowListEditor
          title="Servers"
          rows={draft.servers}
          fields={[{ key: "label", label: "Label" }, { key: "value", label: "Value" }]}
          blank={{ label: "", value: "" }}
          addLabel="Add Server"
          onChange={(servers) => update({ servers })}
        />
        <TextField
          label="Redemption Codes"
          multiline
          placeholder="Comma-separated codes"
          value={draft.redemptionCodes}
          onChange={(redemptionCodes) => update({ redemptionCodes })}
        />
        <TextField
          label="Supplier Notes"
          multiline
          value={draft.supplierNotes}
          onChange={(supplierNotes) => update({ supplierNotes })}
        />
        {!draft.hasPackages && <RoutesSection gameId={gameId} />}
        <div class="ag-danger">
          <button type="button" class="btn-danger" onClick={() => setConfirming(true)}>
            Delete Game
          </button>
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          message={`Delete game '${savedName}'?`}
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
