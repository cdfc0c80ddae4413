// Spec §2 Games list: every game by priority; a row opens it for editing.
import { useEffect, useState } from "react";
import type { GameDto, SupplierKind } from "../../shared/game-types.ts";
import { callApi } from "../lib/api.ts";
import { ElephantIcon, MonkeyIcon } from "../lib/icons.tsx";
import type { AdminViewProps } from "./types.ts";
import { failureText } from "./games/draft.ts";
import "../../styles/admin-games.css";

export type GamesViewProps = AdminViewProps;

/** Spec §2: the supplier's mark (an inline icon, not emoji) prefixed to a game's name. */
function SupplierMark({ supplier }: { supplier: SupplierKind }) {
  if (supplier === "monkey") return <MonkeyIcon label="MooGold" />;
  if (supplier === "elephant") return <ElephantIcon label="EliteDias" />;
  return null;
}

const yesNo = (value: boolean) => value ? "Yes" : "No";

export default function GamesView({ go }: GamesViewProps) {
  const [games, setGames] = useState<GameDto[] | null>(null);
  useEffect(() => {
    callApi<GameDto[]>("GET", "/api/admin/games")
      .then(setGames)
      .catch((error) => {
        console.error(error);
        alert(failureText("get games", error));
        setGames([]);
      });
  }, []);

  return (
    <section>
      <div class="ag-heading">
        <h2>Games</h2>
        <button type="button" class="btn" onClick={() => go("new-game")}>Create New Game</button>
      </div>
      {games === null
        ? <p class="muted">Loading...</p>
        : (
          <div class="ag-scroll" tabIndex={0} role="region" aria-label="Games">
            <table class="ag-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Has Packages</th>
                  <th>Is Hidden</th>
                  <th>Is Out of Stock</th>
                  <th>Priority</th>
                </tr>
              </thead>
              <tbody>
                {games.map((game) => (
                  <tr
                    key={game._id}
                    class="ag-clickable"
                    tabIndex={0}
                    onClick={() => go("edit-game", game._id)}
                    onKeyDown={(e) => e.key === "Enter" && go("edit-game", game._id)}
                  >
                    <td>
                      <span class="ag-name">
                        <SupplierMark supplier={game.supplier} />
                        {game.name}
                      </span>
                    </td>
                    <td>{yesNo(game.hasPackages)}</td>
                    <td>{yesNo(game.isHidden)}</td>
                    <td>{yesNo(game.isOutOfStock)}</td>
                    <td>{game.priority}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
