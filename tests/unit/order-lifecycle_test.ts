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
  // A consumer order in error still has its payment refunded; a cancelled one may still be paid
  // too late, which sends it to error for its refund.
  assert.deepEqual(terminalStates("consumer"), ["successful", "refunded"]);
  for (const buyer of BUYERS) {
    for (const end of terminalStates(buyer)) {
      for (const to of STATES[buyer]) {
        const moves = STEPS.some((step) =>
          step.buyer === buyer && step.from.includes(end) && step.to.includes(to)
        );
        assert.ok(!moves, `${buyer}: ${end} → ${to}`);
      }
    }
  }
});

Deno.test("[lifecycle] a consumer order is refunded only from error, and only a consumer order becomes refunded", () => {
  const toRefunded = STEPS.filter((step) => step.to.includes("refunded"));
  assert.deepEqual(
    toRefunded.map((step) => [step.event, step.buyer, step.from]),
    [["refunded", "consumer", ["error"]]],
  );
  assert.ok(!RESELLER_STATES.includes("refunded" as never));
  assert.deepEqual(MOVES.refunded.consumer.counts, ["refunded"]);
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

Deno.test("[lifecycle] a failed or left payment can still be paid; an expired or cancelled order's payment is too late", () => {
  for (const unpaid of ["payment-failed", "payment-cancelled"] as const) {
    assert.ok(isListedMove(unpaid, "payment-received-pending-disbursement"), unpaid);
  }
  for (const late of ["payment-expired", "cancelled"] as const) {
    assert.ok(!isListedMove(late, "payment-received-pending-disbursement"), late);
    assert.ok(isListedMove(late, "error"), `${late} → error (refunded, never delivered)`);
  }
  assert.deepEqual(MOVES.paidTooLate.consumer.to, ["error"]);
  assert.deepEqual(MOVES.paidTooLate.consumer.counts, []);
});

Deno.test("[lifecycle] Needs review holds a consumer order in error (its refund refused), never a reseller's", () => {
  assert.ok(MOVES.heldForReview.consumer.from.includes("error"));
  assert.ok(!MOVES.heldForReview.reseller.from.includes("error" as never));
  assert.deepEqual(MOVES.reviewResolved.consumer.from, MOVES.heldForReview.consumer.from);
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
