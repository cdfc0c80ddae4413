// Spec §2 generic game ordering view: every launched game other than Mobile Legends.
import { useState } from "react";
import type { ResellerGameDto, ResellerItemDto } from "../../shared/game-types.ts";
import { placeGameOrder, type ResellerRef, verifyGameAccount } from "./order-api.ts";
import { OrderLayout, TextField } from "./OrderLayout.tsx";
import { useCatalogue } from "./use-catalogue.ts";
import { ServerSelect } from "../lib/ServerSelect.tsx";
import { useOrderFlow } from "./use-order-flow.ts";

export interface GameOrderViewProps {
  /** The game being ordered, as the games list gave it. */
  game: ResellerGameDto;
  /** The signed-in reseller, named in the verify and order calls. */
  reseller: ResellerRef;
  /** Returns to the games list. */
  onBack: () => void;
  /** Called after an order is placed, to reload the balance. */
  onPlaced: () => void;
}

export function GameOrderView({ game, reseller, onBack, onPlaced }: GameOrderViewProps) {
  const catalogue = useCatalogue(game);
  const flow = useOrderFlow(onPlaced);
  const [userid, setUserid] = useState("");
  const [serverid, setServerid] = useState("");
  // Spec §5: the Character Name is never sent in the order calls; MooGold's validate checks it.
  const [characterName, setCharacterName] = useState("");
  // The servers map is stored as JSONB, which keeps no key order: list them by name.
  const servers = Object.entries(game.servers ?? {}).sort(([a], [b]) => a.localeCompare(b));

  const verify = () => {
    const id = userid.trim();
    const server = game.requiresServerID ? serverid.trim() : "";
    const character = game.requiresCharacterName ? characterName.trim() : "";
    if (!id || (game.requiresServerID && !server) || !catalogue) return;
    if (game.requiresCharacterName && !character) return;
    flow.verify(async () => {
      const result = await verifyGameAccount(game, id, server, reseller, character);
      if (result.kind === "invalid") return result;
      if (result.kind === "out_of_stock" || catalogue.game.isOutOfStock) {
        return { kind: "out_of_stock", name: game.name };
      }
      const target = { userid: id, serverid: server, userName: result.userName };
      const named = servers.find(([, value]) => value === server)?.[0];
      return {
        kind: "verified",
        target,
        server: !game.requiresServerID
          ? undefined
          : named
          ? { label: "Server", value: named }
          : { label: "Server ID", value: server },
        items: catalogue.gameItems,
      };
    });
  };

  const confirm = async (item: ResellerItemDto, idempotencyKey: string) => {
    if (flow.outcome.kind !== "verified") return;
    const { target } = flow.outcome;
    const placed = await flow.place(
      () => placeGameOrder(reseller, game, target, item, idempotencyKey),
      target.userName || target.userid,
    );
    if (placed) {
      setUserid("");
      setServerid("");
      setCharacterName("");
    }
  };

  return (
    <OrderLayout
      title={game.name}
      flow={flow}
      loading={catalogue === null}
      onVerify={verify}
      onConfirm={confirm}
      onBack={onBack}
    >
      <TextField label="User ID" value={userid} onChange={setUserid} />
      {game.requiresServerID && (servers.length > 0
        ? (
          <div>
            <ServerSelect servers={servers} value={serverid} onChange={setServerid} />
          </div>
        )
        : <TextField label="Server ID" value={serverid} onChange={setServerid} />)}
      {game.requiresCharacterName && (
        <TextField label="Character Name" value={characterName} onChange={setCharacterName} />
      )}
    </OrderLayout>
  );
}
