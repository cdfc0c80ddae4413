/** The views of the admin console (spec §2 Admin console menu). */
export type AdminView =
  | "dashboard"
  | "emails"
  | "games"
  | "new-game"
  | "edit-game"
  | "orders"
  | "users"
  | "suppliers"
  | "settings"
  | "operations"
  | "audit";

/** What the console passes to every view. */
export interface AdminViewProps {
  /** Switches the console to another view (in-page state, not the URL), e.g. go("edit-game", id). */
  go: (view: AdminView, gameId?: string) => void;
  /** The game being edited, for the edit-game view. */
  gameId?: string;
  /** True when the window is 760 px wide or less (spec §2 mobile flag). */
  mobile: boolean;
}
