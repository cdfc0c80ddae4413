// The consoles' statement of the clock their dates are in (src/shared/business-time.ts), set in
// the top bar beside the signed-in name or the balance, so it is on every screen.
import type { ComponentChildren } from "preact";
import { BUSINESS_TIME_NOTE } from "../../shared/business-time.ts";
import "../../styles/business-time.css";

export interface TopbarEndProps {
  /** What the top bar shows at its end: the welcome or the balance. */
  children: ComponentChildren;
}

/** The end of a console's top bar: its own line, with the business-time note under it. */
export function TopbarEnd({ children }: TopbarEndProps) {
  return (
    <div class="topbar-end">
      {children}
      <span class="business-time-note">{BUSINESS_TIME_NOTE}</span>
    </div>
  );
}
