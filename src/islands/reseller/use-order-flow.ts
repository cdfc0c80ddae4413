// The reseller verification and ordering states (spec §4: unverified, verifying, then verified or
// invalid; after a successful order the fields clear, verification resets, a banner shows).
import { useRef, useState } from "react";
import type { ResellerItemDto } from "../../shared/game-types.ts";
import { type MlbbPackage, type OrderTarget, placeOrderFailureText } from "./order-api.ts";
import type { OrderPlayer } from "./Catalogue.tsx";

/** What the ordering view shows under its form. */
export type Outcome =
  | { kind: "unverified" }
  // The order goes to the account as verified, whatever the fields hold by then; `server` is how
  // the screen names its server (the confirmation repeats it).
  | {
    kind: "verified";
    target: OrderTarget;
    server?: OrderPlayer["server"];
    items: ResellerItemDto[];
    package?: MlbbPackage;
  }
  | { kind: "out_of_stock"; name: string }
  | { kind: "invalid" }
  | { kind: "placed"; user: string };

export interface OrderFlow {
  outcome: Outcome;
  verifying: boolean;
  placing: boolean;
  /** Runs one verification; a failed call alerts (spec §8) and loading stops. */
  verify(run: () => Promise<Outcome>): Promise<void>;
  /** Sends one confirmed order; true once it is placed. */
  place(send: () => Promise<unknown>, user: string): Promise<boolean>;
}

/** The verify-then-order state of one ordering view; `onPlaced` reloads the balance. */
export function useOrderFlow(onPlaced: () => void): OrderFlow {
  const [outcome, setOutcome] = useState<Outcome>({ kind: "unverified" });
  const [verifying, setVerifying] = useState(false);
  const [placing, setPlacing] = useState(false);
  // A second confirmation before the first re-render must not send a second order.
  const inFlight = useRef(false);

  async function verify(run: () => Promise<Outcome>) {
    if (verifying) return;
    setVerifying(true);
    setOutcome({ kind: "unverified" });
    try {
      setOutcome(await run());
    } catch (error) {
      console.error(error);
      const message = error instanceof Error ? error.message : String(error);
      alert(`Failed to verify ID, please try again. Error: ${message}`);
    } finally {
      setVerifying(false);
    }
  }

  async function place(send: () => Promise<unknown>, user: string): Promise<boolean> {
    if (inFlight.current) return false;
    inFlight.current = true;
    setPlacing(true);
    try {
      await send();
      setOutcome({ kind: "placed", user });
      onPlaced();
      return true;
    } catch (error) {
      console.error(error);
      alert(placeOrderFailureText(error));
      return false;
    } finally {
      inFlight.current = false;
      setPlacing(false);
    }
  }

  return { outcome, verifying, placing, verify, place };
}
