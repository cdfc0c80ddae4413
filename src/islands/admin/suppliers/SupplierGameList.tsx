import type { LaunchedGame, SupplierGame } from "./types.ts";
import type { Loaded } from "../../lib/use-load.ts";
import { isLaunched, matchesSearch } from "./launch-rules.ts";
import { CheckIcon } from "../../lib/icons.tsx";

export interface SupplierGameListProps {
  /** The supplier's games, or the loading or failure state of fetching them. */
  games: Loaded<SupplierGame[]>;
  /** The games launched so far, to mark the launched cards. */
  launched: LaunchedGame[];
  /** The search text (kept by the parent so it survives opening a game). */
  search: string;
  /** Called with the new search text. */
  onSearch: (search: string) => void;
  /** Called with the game whose card was chosen. */
  onOpen: (game: SupplierGame) => void;
}

/** Spec §2 Suppliers: a supplier's games as cards, 6 per row (spec §9), with a search box. */
export function SupplierGameList({
  games,
  launched,
  search,
  onSearch,
  onOpen,
}: SupplierGameListProps) {
  if (games.state === "loading") return <p class="muted" role="status">Loading games...</p>;
  if (games.state === "failed") {
    return <p class="banner banner-error" role="alert">{games.message}</p>;
  }
  const shown = games.value.filter((game) =>
    matchesSearch(game.title, search) || matchesSearch(game.supplierName, search)
  );
  return (
    <>
      <div class="supplier-toolbar">
        <input
          type="search"
          placeholder="Search game..."
          aria-label="Search game"
          value={search}
          onInput={(e) => onSearch((e.target as HTMLInputElement).value)}
        />
      </div>
      {shown.length === 0 && <p class="muted">No games found</p>}
      <ul class="supplier-grid" aria-label="Supplier games">
        {shown.map((game) => (
          <li key={game.supplierGameID || game.supplierName}>
            <button type="button" class="supplier-card" onClick={() => onOpen(game)}>
              <span class="supplier-card-title">
                <span class="supplier-card-name">{game.title}</span>
                {game.title !== game.supplierName && (
                  <code class="supplier-card-code">{game.supplierName}</code>
                )}
              </span>
              {isLaunched(launched, game) && (
                <span class="supplier-card-mark">
                  <CheckIcon /> Launched
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
