import assert from "node:assert/strict";
import type { Db } from "../../src/db/client.ts";
import { transitionOrder, transitionOrdersWithEvents } from "../../src/db/repositories/orders.ts";
import { recordAcceptances } from "../../src/db/repositories/supplier-attempts.ts";
import {
  type BuyerType,
  CONSUMER_STATES,
  INITIAL_STATE,
  isListedMove,
  MOVES,
  type OrderStatus,
  RESELLER_STATES,
  STEPS,
  terminalStates,
} from "../../src/shared/order-lifecycle.ts";

const STATES: Record<BuyerType, readonly OrderStatus[]> = {
  reseller: RESELLER_STATES,
  consumer: CONSUMER_STATES,
};
const BUYERS = ["reseller", "consumer"] as const;

/** A handle that fails the test if the repository sends anything: a refusal comes first. */
const untouchable = new Proxy({}, {
  get() {
    throw new Error("the repository reached the database");
  },
}) as Db;

/** The states a buyer type's orders can reach from where they start. */
function reachable(buyer: BuyerType): Set<OrderStatus> {
  const seen = new Set<OrderStatus>([INITIAL_STATE[buyer]]);
  for (let grew = true; grew;) {
    grew = false;
    for (const step of STEPS.filter((s) => s.buyer === buyer)) {
      if (!step.from.some((state) => seen.has(state))) continue;
      for (const to of step.to) {
        if (seen.has(to)) continue;
        seen.add(to);
        grew = true;
      }
    }
  }
  return seen;
}

Deno.test("[lifecycle] every step moves between states of its own buyer type", () => {
  for (const step of STEPS) {
    for (const state of [...step.from, ...step.to]) {
      assert.ok(
        STATES[step.buyer].includes(state),
        `${step.event}: ${state} is no ${step.buyer} state`,
      );
    }
  }
});

Deno.test("[lifecycle] every state is reachable from where its orders start", () => {
  for (const buyer of BUYERS) {
    assert.deepEqual([...reachable(buyer)].sort(), [...STATES[buyer]].sort(), buyer);
  }
});

Deno.test("[lifecycle] the terminal states are the ends of spec §4, and nothing moves out of them", () => {
  assert.deepEqual(terminalStates("reseller"), ["successful", "error"]);
  assert.deepEqual(terminalStates("consumer"), ["successful", "error", "cancelled"]);
  const all = [...new Set([...RESELLER_STATES, ...CONSUMER_STATES])];
  for (const buyer of BUYERS) {
    for (const end of terminalStates(buyer)) {
      for (const to of all) assert.ok(!isListedMove(end, to), `${end} → ${to}`);
    }
  }
});

Deno.test("[lifecycle] every status move clears Needs review; only holding for review sets it", () => {
  for (const [event, row] of Object.entries(MOVES)) {
    const moves = STEPS.some((step) => step.event === event && step.to.length > 0);
    if (moves) assert.equal(row.review, "clear", event);
  }
  assert.equal(MOVES.heldForReview.review, "hold");
  assert.deepEqual(
    STEPS.filter((step) => step.event === "heldForReview").map((step) => step.to),
    [[], []],
  );
});

Deno.test("[lifecycle] a payment that ended unpaid can still be paid; a cancelled order cannot", () => {
  for (const unpaid of MOVES.paymentEndedUnpaid.consumer.to) {
    assert.ok(isListedMove(unpaid, "payment-received-pending-disbursement"), unpaid);
  }
  assert.ok(!isListedMove("cancelled", "payment-received-pending-disbursement"));
});

Deno.test("[lifecycle] the repository refuses every move the table does not list", async () => {
  const all = [...new Set([...RESELLER_STATES, ...CONSUMER_STATES])];
  let refused = 0;
  for (const from of all) {
    for (const to of all) {
      if (isListedMove(from, to)) continue;
      const move = { from: [from], to };
      await assert.rejects(
        transitionOrder(untouchable, "R-1", move, {}),
        /not in the lifecycle table/,
        `${from} → ${to}`,
      );
      refused++;
    }
  }
  assert.ok(refused > 50, `${refused} refused`);
  await assert.rejects(
    transitionOrdersWithEvents(untouchable, { from: ["new", "error"], to: "successful" }, {}, []),
    /error → successful is not in the lifecycle table/,
  );
  await assert.rejects(
    recordAcceptances(untouchable, [{
      attempt: { id: 1, outcome: "accepted", answer: "" },
      orderId: "R-1",
      move: { from: ["successful"], to: "pending" },
      supplierOrderId: "S-1",
    }]),
    /successful → pending is not in the lifecycle table/,
  );
});
