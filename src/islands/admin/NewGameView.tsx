// Spec §2 Create Game: a game starts with only a name and is then edited.
import { useState } from "react";
import type { GameDto } from "../../shared/game-types.ts";
import { callApi } from "../lib/api.ts";
import type { AdminViewProps } from "./types.ts";
import { failureText } from "./games/draft.ts";
import "../../styles/admin-games.css";

export type NewGameViewProps = AdminViewProps;

export default function NewGameView({ go }: NewGameViewProps) {
  const [name, setName] = useState("");
  const [creating, setCreating] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    // Spec §5: create game needs a non-empty name.
    if (!name.trim()) return;
    setCreating(true);
    try {
      const game = await callApi<GameDto>("POST", "/api/game", { name: name.trim() });
      go("edit-game", game._id);
    } catch (error) {
      console.error(error);
      alert(failureText("create game", error));
      setCreating(false);
    }
  };

  return (
    <section>
      {/* Not a <nav>: the console styles every nav inside its shell as the side menu. */}
      <div class="ag-breadcrumb" role="navigation" aria-label="Breadcrumb">
        <button type="button" class="ag-link" onClick={() => go("games")}>Games</button>
        <span aria-hidden="true">›</span>
        <span aria-current="page">Create New Game</span>
      </div>
      <form class="panel ag-create" onSubmit={create}>
        <h2>Create Game</h2>
        <label>
          Game Name
          <input
            type="text"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <div class="ag-actions">
          <button type="button" class="btn-secondary" onClick={() => go("games")}>Cancel</button>
          <button type="submit" class="btn" disabled={creating || !name.trim()}>
            Create Game
          </button>
        </div>
      </form>
    </section>
  );
}
