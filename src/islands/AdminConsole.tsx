import { useState } from "react";
import { useNarrow } from "./lib/viewport.ts";
import { MenuButtons } from "./lib/MenuButtons.tsx";
import type { AdminView, AdminViewProps } from "./admin/types.ts";
import SuppliersView from "./admin/SuppliersView.tsx";
import GamesView from "./admin/GamesView.tsx";
import NewGameView from "./admin/NewGameView.tsx";
import EditGameView from "./admin/EditGameView.tsx";
import DashboardView from "./admin/DashboardView.tsx";
import EmailsView from "./admin/EmailsView.tsx";
import SettingsView from "./admin/SettingsView.tsx";
import AuditView from "./admin/AuditView.tsx";
import OperationsView from "./admin/OperationsView.tsx";
import OrdersView from "./admin/OrdersView.tsx";
import { isSuperadminRank } from "../shared/admin-types.ts";
import UsersView from "./admin/UsersView.tsx";
import { TopbarEnd } from "./lib/TopbarEnd.tsx";
import type { BalanceThreshold } from "./admin/settings/AlertThresholds.tsx";

export interface AdminConsoleProps {
  /** The signed-in admin's display name. */
  adminName: string;
  /** The signed-in admin's rank; only a superadmin sees Audit (the server enforces it). */
  adminRank: string;
  /** Each registered supplier's low-balance threshold, for Settings. */
  balanceThresholds: BalanceThreshold[];
}

/** Spec §2 Admin console menu; new-game and edit-game are opened from the games list. */
const MENU: { key: AdminView; label: string }[] = [
  { key: "dashboard", label: "Dashboard" },
  { key: "emails", label: "Emails" },
  { key: "games", label: "Games" },
  { key: "orders", label: "Orders" },
  { key: "users", label: "Users" },
  { key: "suppliers", label: "Suppliers" },
  { key: "settings", label: "Settings" },
];

/** Ours, not the spec's: how the running system is doing. */
const OPERATIONS_MENU: { key: AdminView; label: string }[] = [
  { key: "operations", label: "Operations" },
];

/** Ours, not the spec's: the audit log, for superadmins. */
const SUPERADMIN_MENU: { key: AdminView; label: string }[] = [{ key: "audit", label: "Audit" }];

function ViewFor(
  props: AdminViewProps & { view: AdminView; balanceThresholds: BalanceThreshold[] },
) {
  switch (props.view) {
    case "dashboard":
      return <DashboardView {...props} />;
    case "suppliers":
      return <SuppliersView {...props} />;
    case "games":
      return <GamesView {...props} />;
    case "new-game":
      return <NewGameView {...props} />;
    case "edit-game":
      return <EditGameView {...props} />;
    case "emails":
      return <EmailsView {...props} />;
    case "orders":
      return <OrdersView {...props} />;
    case "users":
      return <UsersView {...props} />;
    case "settings":
      return <SettingsView {...props} />;
    case "operations":
      return <OperationsView {...props} />;
    case "audit":
      return <AuditView {...props} />;
    default:
      // Spec §2: unknown items show nothing.
      return null;
  }
}

export default function AdminConsole(
  { adminName, adminRank, balanceThresholds }: AdminConsoleProps,
) {
  // Spec §2: the dashboard is the default menu item.
  const [view, setView] = useState<AdminView>("dashboard");
  const [gameId, setGameId] = useState<string | undefined>();
  const mobile = useNarrow();
  const go = (next: AdminView, id?: string) => {
    setGameId(id);
    setView(next);
  };

  return (
    <>
      <header class="topbar">
        <h1 class="brand">TopUp Admin</h1>
        <TopbarEnd>
          <span>Welcome {adminName}</span>
        </TopbarEnd>
      </header>
      <div class={mobile ? "shell mobile" : "shell"}>
        <nav aria-label="Admin menu">
          <MenuButtons
            items={[
              ...MENU,
              ...OPERATIONS_MENU,
              ...(isSuperadminRank(adminRank) ? SUPERADMIN_MENU : []),
            ]}
            current={view === "new-game" || view === "edit-game" ? "games" : view}
            onSelect={(key) => go(key as AdminView)}
          />
        </nav>
        <main data-view={view}>
          <ViewFor
            view={view}
            go={go}
            gameId={gameId}
            mobile={mobile}
            balanceThresholds={balanceThresholds}
          />
        </main>
      </div>
    </>
  );
}
