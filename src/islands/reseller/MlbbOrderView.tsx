// Spec §2 Mobile Legends ordering view: the server verifies the account and chooses its package
// (spec §4); the items shown are that package's, at this reseller's price.
import { useState } from "react";
import type { ResellerGameDto, ResellerItemDto } from "../../shared/game-types.ts";
import { placeMlbbOrder, type ResellerRef, verifyMlbbAccount } from "./order-api.ts";
import { OrderLayout, TextField } from "./OrderLayout.tsx";
import { useCatalogue } from "./use-catalogue.ts";
import { useOrderFlow } from "./use-order-flow.ts";

export interface MlbbOrderViewProps {
  /** The Mobile Legends game, as the games list gave it. */
  game: ResellerGameDto;
  /** The signed-in reseller, named in the verify and order calls. */
  reseller: ResellerRef;
  /** Returns to the games list. */
  onBack: () => void;
  /** Called after an order is placed, to reload the balance. */
  onPlaced: () => void;
}

export function MlbbOrderView({ game, reseller, onBack, onPlaced }: MlbbOrderViewProps) {
  const catalogue = useCatalogue(game);
  const flow = useOrderFlow(onPlaced);
  const [userid, setUserid] = useState("");
  const [serverid, setServerid] = useState("");

  const verify = () => {
    const id = userid.trim();
    const server = serverid.trim();
    if (!id || !server || !catalogue) return;
    flow.verify(async () => {
      const result = await verifyMlbbAccount(id, server, reseller);
      if (result.kind === "invalid") return result;
      const pkg = catalogue.packages.find((p) => p.name === result.package);
      if (result.kind === "out_of_stock" || !pkg || pkg.isOutOfStock) {
        return { kind: "out_of_stock", name: result.package ?? game.name };
      }
      const target = { userid: id, serverid: server, userName: result.userName };
      return {
        kind: "verified",
        target,
        server: { label: "Server ID", value: server },
        items: pkg.gameItems,
        package: result.package,
      };
    });
  };

  const confirm = async (item: ResellerItemDto, idempotencyKey: string) => {
    const { outcome } = flow;
    if (outcome.kind !== "verified" || !outcome.package) return;
    const { target, package: pkg } = outcome;
    const placed = await flow.place(
      () => placeMlbbOrder(reseller, target, item, pkg, idempotencyKey),
      target.userName || target.userid,
    );
    if (placed) {
      setUserid("");
      setServerid("");
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
      <TextField label="Server ID" value={serverid} onChange={setServerid} />
    </OrderLayout>
  );
}
