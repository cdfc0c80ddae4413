// Loads a game's items at this reseller's price (GET /api/resellers/game/{gameId}).
import { useEffect, useState } from "react";
import type { ResellerGameDto, ResellerItemDto } from "../../shared/game-types.ts";
import { callApi } from "../lib/api.ts";
import { failureText } from "../lib/order-format.ts";

/** The catalogue answer: Mobile Legends uses `packages`, other games `gameItems`. */
export interface ResellerCatalogue {
  game: { _id: string; name: string; supplierName: string; isOutOfStock: boolean };
  packages: { name: string; isOutOfStock: boolean; gameItems: ResellerItemDto[] }[];
  gameItems: ResellerItemDto[];
}

/** The game's catalogue, null while loading; a failure alerts and leaves no items. */
export function useCatalogue(game: ResellerGameDto): ResellerCatalogue | null {
  const [catalogue, setCatalogue] = useState<ResellerCatalogue | null>(null);
  useEffect(() => {
    let current = true;
    setCatalogue(null);
    callApi<ResellerCatalogue>("GET", `/api/resellers/game/${encodeURIComponent(game._id)}`)
      .then((value) => current && setCatalogue(value))
      .catch((error) => {
        console.error(error);
        alert(failureText("get game items", error));
        if (current) {
          const { _id, name, supplierName, isOutOfStock } = game;
          setCatalogue({
            game: { _id, name, supplierName, isOutOfStock },
            packages: [],
            gameItems: [],
          });
        }
      });
    return () => {
      current = false;
    };
  }, [game._id]);
  return catalogue;
}
