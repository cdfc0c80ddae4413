// Edit game › Details: the game's texts, images, platforms and FAQ (spec §3 Game).
import type { GameDraft, UpdateDraft } from "./draft.ts";
import { ListField, TextField } from "./fields.tsx";
import { ImageUpload } from "./ImageUpload.tsx";
import { RowListEditor } from "./RowListEditor.tsx";

export interface DetailsTabProps {
  /** The game as edited so far. */
  draft: GameDraft;
  /** Applies a change to the draft. */
  update: UpdateDraft;
}

export function DetailsTab({ draft, update }: DetailsTabProps) {
  return (
    <div class="ag-grid">
      <div>
        <TextField label="Game Name" value={draft.name} onChange={(name) => update({ name })} />
        <TextField
          label="Tagline"
          value={draft.tagline}
          onChange={(tagline) => update({ tagline })}
        />
        <TextField
          label="Description"
          multiline
          value={draft.description}
          onChange={(description) => update({ description })}
        />
        <TextField
          label="About This Game"
          multiline
          value={draft.aboutThisGame}
          onChange={(aboutThisGame) => update({ aboutThisGame })}
        />
        <TextField
          label="Game Currency"
          placeholder="e.g. Diamonds"
          value={draft.gameCurrency}
          onChange={(gameCurrency) => update({ gameCurrency })}
        />
        <ListField
          label="Platforms"
          placeholder="Android, iOS"
          value={draft.platforms}
          onChange={(platforms) => update({ platforms })}
        />
      </div>
      <div>
        <ImageUpload
          label="Game Image"
          value={draft.gameImage}
          onChange={(gameImage) => update({ gameImage })}
        />
        <TextField
          label="Instructional Image URL"
          placeholder="https://"
          value={draft.instructionalImage}
          onChange={(instructionalImage) => update({ instructionalImage })}
        />
      </div>
      <div class="ag-wide">
        <RowListEditor
          title="FAQ"
          rows={draft.faq}
          fields={[
            { key: "question", label: "Question" },
            { key: "answer", label: "Answer", multiline: true },
          ]}
          blank={{ question: "", answer: "" }}
          addLabel="Add Question"
          onChange={(faq) => update({ faq })}
        />
      </div>
    </div>
  );
}
