// Spec §2 Edit game: tabs over one working copy of the game, saved together with one PUT.
import { useEffect, useState } from "react";
import type { GameDto, GamePackageDto } from "../../shared/game-types.ts";
import { consumerPageSlug } from "../../shared/consumer-storefront.ts";
import { callApi } from "../lib/api.ts";
import type { AdminViewProps } from "./types.ts";
import {
  errorText,
  failureText,
  type GameDraft,
  MOBILE_LEGENDS,
  toDraft,
  toSaveBody,
} from "./games/draft.ts";
import { DetailsTab } from "./games/DetailsTab.tsx";
import { ItemsEditor } from "./games/ItemsEditor.tsx";
import { PackagesTab } from "./games/PackagesTab.tsx";
import { PackageView } from "./games/PackageView.tsx";
import { LinksTab } from "./games/LinksTab.tsx";
import { SettingsTab } from "./games/SettingsTab.tsx";
import "../../styles/admin-games.css";
import { TabList } from "../lib/TabList.tsx";

export type EditGameViewProps = AdminViewProps;

type Tab = "details" | "merchandise" | "packages" | "links" | "settings";

const TABS: { key: Tab; label: string }[] = [
  { key: "details", label: "Details" },
  { key: "merchandise", label: "Merchandise" },
  { key: "packages", label: "Packages" },
  { key: "links", label: "Links" },
  { key: "settings", label: "Settings" },
];

/** Spec §2: items live at the top level or inside packages, never both. */
function tabAvailable(tab: Tab, hasPackages: boolean): boolean {
  if (tab === "merchandise") return !hasPackages;
  if (tab === "packages") return hasPackages;
  return true;
}

type Notice = { kind: "ok" | "error"; text: string } | null;

export default function EditGameView({ go, gameId, mobile }: EditGameViewProps) {
  const [game, setGame] = useState<GameDto | null>(null);
  const [draft, setDraft] = useState<GameDraft | null>(null);
  const [missing, setMissing] = useState(false);
  const [tab, setTab] = useState<Tab>("details");
  const [packageIndex, setPackageIndex] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const load = async () => {
    try {
      const found = (await callApi<GameDto[]>("GET", "/api/admin/games"))
        .find((g) => g._id === gameId);
      setMissing(!found);
      setGame(found ?? null);
      setDraft(found ? toDraft(found) : null);
    } catch (error) {
      console.error(error);
      alert(failureText("get game", error));
    }
  };
  useEffect(() => {
    load();
  }, [gameId]);

  if (missing) {
    return (
      <section>
        <p class="muted">This game no longer exists.</p>
        <button type="button" class="btn-secondary" onClick={() => go("games")}>Back</button>
      </section>
    );
  }
  if (!game || !draft) return <p class="muted">Loading...</p>;

  const update = (patch: Partial<GameDraft>) => {
    setNotice(null);
    setDraft((old) => old && { ...old, ...patch });
  };
  const updatePackage = (index: number, pkg: GamePackageDto) =>
    update({ packages: draft.packages.map((old, i) => i === index ? pkg : old) });
  const allowDoubleRecharge = game.name === MOBILE_LEGENDS;
  const openPackage = packageIndex === null ? null : draft.packages[packageIndex];

  const save = async () => {
    setSaving(true);
    setNotice(null);
    try {
      await callApi<GameDto>("PUT", `/api/game/${game._id}`, toSaveBody(draft));
      await load();
      setNotice({ kind: "ok", text: "Game saved successfully." });
    } catch (error) {
      console.error(error);
      const text = `Fail update game data, please try again. Error: ${errorText(error)}`;
      alert(text);
      setNotice({ kind: "error", text });
    } finally {
      setSaving(false);
    }
  };

  const deleteGame = async () => {
    try {
      await callApi("DELETE", `/api/game/${game._id}`);
    } catch (error) {
      console.error(error);
      alert(failureText("delete game", error));
      throw error;
    }
    go("games");
  };

  const back = () => openPackage ? setPackageIndex(null) : go("games");

  return (
    <section class={mobile ? "ag-edit ag-mobile" : "ag-edit"}>
      {/* Not a <nav>: the console styles every nav inside its shell as the side menu. */}
      <div class="ag-breadcrumb" role="navigation" aria-label="Breadcrumb">
        <button type="button" class="ag-link" onClick={() => go("games")}>Games</button>
        <span aria-hidden="true">›</span>
        {openPackage
          ? (
            <>
              <button type="button" class="ag-link" onClick={() => setPackageIndex(null)}>
                {game.name}
              </button>
              <span aria-hidden="true">›</span>
              <span aria-current="page">{openPackage.name}</span>
            </>
          )
          : <span aria-current="page">{game.name}</span>}
      </div>
      <TabList
        label="Game sections"
        items={TABS}
        current={tab}
        available={(key) => tabAvailable(key, draft.hasPackages)}
        onSelect={(key) => {
          setPackageIndex(null);
          setTab(key);
        }}
      />
      <div class="ag-tabpanel" role="tabpanel">
        {openPackage && packageIndex !== null
          ? (
            <PackageView
              pkg={openPackage}
              allowDoubleRecharge={allowDoubleRecharge}
              onChange={(pkg) => updatePackage(packageIndex, pkg)}
            />
          )
          : (
            <>
              {tab === "details" && <DetailsTab draft={draft} update={update} />}
              {tab === "merchandise" && (
                <ItemsEditor
                  items={draft.gameItems}
                  allowDoubleRecharge={allowDoubleRecharge}
                  onChange={(gameItems) => update({ gameItems })}
                />
              )}
              {tab === "packages" && (
                <PackagesTab packages={draft.packages} onOpen={setPackageIndex} />
              )}
              {tab === "links" && <LinksTab draft={draft} update={update} />}
              {tab === "settings" && (
                <SettingsTab
                  gameId={game._id}
                  draft={draft}
                  savedName={game.name}
                  update={update}
                  onDelete={deleteGame}
                />
              )}
            </>
          )}
      </div>
      <div class="ag-bottombar">
        {notice && (
          <p class={notice.kind === "ok" ? "ag-ok" : "error"} role="status">{notice.text}</p>
        )}
        <button type="button" class="btn-secondary" onClick={back}>Back</button>
        {/* The saved game as consumers see it (a hidden one too): save first to preview edits. */}
        <a
          class="btn-secondary"
          href={`/admin/preview/${
            consumerPageSlug({ id: game._id, name: game.name, supplierName: game.supplierName })
          }`}
          target="_blank"
          rel="noopener"
        >
          Preview consumer page
        </a>
        <button type="button" class="btn" disabled={saving} onClick={save}>
          {saving ? "Saving..." : "Save"}
        </button>
      </div>
    </section>
  );
}
