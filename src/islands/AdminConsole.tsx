import { useState } from "react";
import { useNarrow } from "./lib/viewport.ts";
import { signOut } from "./lib/sign-out.ts";
import { MenuButtons } from "./lib/MenuButtons.tsx";
import type { AdminView, AdminViewProps } from "./admin/types.ts";
import SuppliersView from "./admin/SuppliersView.tsx";
import GamesView from "./admin/GamesView.tsx";
import NewGameView from "./admin/NewGameView.tsx";
import EditGameView from "./admin/EditGameView.tsx";
import EmailsView from "./admin/EmailsView.tsx";

export interface AdminConsoleProps {
  /** The signed-in admin's display name. */
  adminName: string;
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

function SettingsView() {
  return (
    <section>
      <h2>Settings</h2>
      <button class="btn-danger" type="button" onClick={() => signOut("admin")}>Sign out</button>
    </section>
  );
}

function ViewFor(props: AdminViewProps & { view: AdminView }) {
  switch (props.view) {
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
    case "settings":
      return <SettingsView />;
    default:
      // Spec §2: views not built yet (and unknown items) show nothing.
      return null;
  }
}

export default function AdminConsole({ adminName }: AdminConsoleProps) {
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
        <span class="brand">TopUp Admin</span>
        <span>Welcome {adminName}</span>
      </header>
      <div class={mobile ? "shell mobile" : "shell"}>
        <nav aria-label="Admin menu">
          <MenuButtons
            items={MENU}
            current={view === "new-game" || view === "edit-game" ? "games" : view}
            onSelect={(key) => go(key as AdminView)}
          />
        </nav>
        <main data-view={view}>
          <ViewFor view={view} go={go} gameId={gameId} mobile={mobile} />
        </main>
      </div>
    </>
  );
}
