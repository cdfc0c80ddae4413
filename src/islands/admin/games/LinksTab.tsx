// Edit game › Links: the five link lists and the three single links (spec §3 Game links).
import type { GameLinksDto } from "../../../shared/game-types.ts";
import type { GameDraft, UpdateDraft } from "./draft.ts";
import { TextField } from "./fields.tsx";
import { RowListEditor } from "./RowListEditor.tsx";

export interface LinksTabProps {
  /** The game as edited so far. */
  draft: GameDraft;
  /** Applies a change to the draft. */
  update: UpdateDraft;
}

const LINK_LISTS: { key: keyof GameLinksDto; title: string }[] = [
  { key: "newMetaUpdateLinks", title: "New Meta Update Links" },
  { key: "generalGuideLinks", title: "General Guide Links" },
  { key: "howToPlayLinks", title: "How To Play Links" },
  { key: "esportsEventLinks", title: "Esports Event Links" },
  { key: "memesFunnyLinks", title: "Memes & Funny Links" },
];

export function LinksTab({ draft, update }: LinksTabProps) {
  return (
    <div class="ag-grid">
      <div class="ag-wide ag-three">
        <TextField
          label="Official Website Link"
          placeholder="https://"
          value={draft.officialWebsiteLink}
          onChange={(officialWebsiteLink) => update({ officialWebsiteLink })}
        />
        <TextField
          label="Fandom Link"
          placeholder="https://"
          value={draft.fandomLink}
          onChange={(fandomLink) => update({ fandomLink })}
        />
        <TextField
          label="Reddit Link"
          placeholder="https://"
          value={draft.redditLink}
          onChange={(redditLink) => update({ redditLink })}
        />
      </div>
      {LINK_LISTS.map(({ key, title }) => (
        <RowListEditor
          key={key}
          title={title}
          rows={draft.links[key]}
          fields={[{ key: "name", label: "Name" }, { key: "link", label: "Link" }]}
          blank={{ name: "", link: "" }}
          addLabel="Add Link"
          onChange={(rows) => update({ links: { ...draft.links, [key]: rows } })}
        />
      ))}
    </div>
  );
}
