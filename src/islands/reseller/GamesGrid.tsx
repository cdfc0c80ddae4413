// Spec §2 games grid: a card per game with image, name and tagline; hidden games are already
// left out by the server.
import { useEffect, useState } from "react";
import type { ResellerGameDto } from "../../shared/game-types.ts";
import { callApi } from "../lib/api.ts";
import { failureText } from "../lib/order-format.ts";

export interface GamesGridProps {
  /** Called with the game whose card was clicked. */
  onOpen: (game: ResellerGameDto) => void;
}

export function GamesGrid({ onOpen }: GamesGridProps) {
  const [games, setGames] = useState<ResellerGameDto[] | null>(null);
  useEffect(() => {
    callApi<ResellerGameDto[]>("GET", "/api/reseller/games")
      .then(setGames)
      .catch((error) => {
        console.error(error);
        alert(failureText("get games", error));
        setGames([]);
      });
  }, []);

  if (games === null) return <p class="muted" role="status">Loading...</p>;
  return (
    <section>
      <h2>Games</h2>
      <div class="rs-game-grid">
        {games.map((game) => (
          <button
            key={game._id}
            type="button"
            class="rs-game"
            onClick={() => onOpen(game)}
          >
            {game.gameImage
              ? <img src={game.gameImage} alt="" loading="lazy" />
              : <span class="rs-game-placeholder" aria-hidden="true">{game.name.charAt(0)}</span>}
            <span class="rs-game-name">{game.name}</span>
            <span class="rs-game-tagline">{game.tagline}</span>
          </button>
        ))}
      </div>
    </section>
  );
}
