// Spec §2 Reseller home: header with the balance, menu Games / Orders / Account, and a per-game
// ordering view. Views switch by in-page state; each view loads its data when it opens, and the
// reseller is reloaded on every switch, so coming back always shows fresh games, orders and balance.
import { useEffect, useState } from "react";
import type { ResellerGameDto } from "../shared/game-types.ts";
import { callApi } from "./lib/api.ts";
import { dollarsToDollarString } from "./lib/format.ts";
import { useNarrow } from "./lib/viewport.ts";
import { MenuButtons } from "./lib/MenuButtons.tsx";
import { AccountView } from "./reseller/AccountView.tsx";
import { GameOrderView } from "./reseller/GameOrderView.tsx";
import { GamesGrid } from "./reseller/GamesGrid.tsx";
import { MlbbOrderView } from "./reseller/MlbbOrderView.tsx";
import { OrdersView } from "./reseller/OrdersView.tsx";
import { TopbarEnd } from "./lib/TopbarEnd.tsx";
import "../styles/reseller.css";

export interface ResellerHomeProps {
  /** The signed-in reseller's id. */
  resellerId: string;
  /** The signed-in reseller's name. */
  name: string;
  /** Current balance in dollars (at most two decimals). */
  balance: number;
}

type MenuView = "games" | "orders" | "account";

const MENU: { key: MenuView; label: string }[] = [
  { key: "games", label: "Games" },
  { key: "orders", label: "Orders" },
  { key: "account", label: "Account" },
];

/** The supplierName of Mobile Legends, which opens the special ordering view (spec §2). */
const MLBB_SUPPLIER_NAME = "mlbb";

export default function ResellerHome({ resellerId, name, balance }: ResellerHomeProps) {
  const [view, setView] = useState<MenuView>("games");
  const [game, setGame] = useState<ResellerGameDto | null>(null);
  const [reseller, setReseller] = useState({ name, balance });
  // Bumped to reload the reseller without switching views (after an order or a refresh).
  const [reloads, setReloads] = useState(0);
  const mobile = useNarrow();

  useEffect(() => {
    callApi<{ user: { name: string; balance: number } }>("GET", "/api/current_user")
      .then(({ user }) => setReseller({ name: user.name, balance: user.balance }))
      .catch((error) => console.error(error));
  }, [view, game, reloads]);

  const reloadReseller = () => setReloads((n) => n + 1);
  const select = (key: string) => {
    setGame(null);
    setView(key as MenuView);
  };
  const resellerRef = { id: resellerId, name: reseller.name };
  const backToGames = () => setGame(null);

  // Spec §2: the home shows only once a reseller with a name is loaded.
  if (!reseller.name) return <p class="muted" role="status">Loading...</p>;
  return (
    <div class={mobile ? "rs-home mobile" : "rs-home"}>
      <header class="topbar">
        <h1 class="rs-title">
          <span class="brand logo">TopUp</span> <span class="welcome">Welcome back,</span>{" "}
          <strong>{reseller.name}</strong>
        </h1>
        <TopbarEnd>
          <span class="rs-balance">Account Balance: {dollarsToDollarString(reseller.balance)}</span>
        </TopbarEnd>
      </header>
      <nav class="tabs" aria-label="Reseller menu">
        <MenuButtons items={MENU} current={view} onSelect={select} />
      </nav>
      <main class="rs-main" data-view={game ? "game" : view}>
        {view === "games" && !game && <GamesGrid onOpen={setGame} />}
        {view === "games" && game && (game.supplierName === MLBB_SUPPLIER_NAME && game.hasPackages
          ? (
            <MlbbOrderView
              game={game}
              reseller={resellerRef}
              onBack={backToGames}
              onPlaced={reloadReseller}
            />
          )
          : (
            <GameOrderView
              game={game}
              reseller={resellerRef}
              onBack={backToGames}
              onPlaced={reloadReseller}
            />
          ))}
        {view === "orders" && <OrdersView resellerId={resellerId} onRefreshed={reloadReseller} />}
        {view === "account" && <AccountView resellerId={resellerId} />}
      </main>
    </div>
  );
}
