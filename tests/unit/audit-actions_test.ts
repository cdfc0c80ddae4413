// The Audit view reads each action as words, not as its code ("reseller.top_up").
import assert from "node:assert/strict";
import { auditActionLabel, auditActionsWorded } from "../../src/shared/audit-actions.ts";
import type { ReviewAction } from "../../src/shared/order-types.ts";

/** Every action code the domain writes: the literals beside an `action` in src/domain. */
function actionsWritten(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: URL) => {
    for (const entry of Deno.readDirSync(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) walk(url);
      else if (entry.name.endsWith(".ts")) {
        for (const line of Deno.readTextFileSync(url).split("\n")) {
          if (!/\baction\b/.test(line)) continue;
          for (const m of line.matchAll(/"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"/g)) found.add(m[1]);
        }
      }
    }
  };
  walk(new URL("../../src/domain/", import.meta.url));
  // review-queue.ts writes `order.review_${action}` for each decision.
  const decisions: ReviewAction[] = ["delivered", "refund", "resend"];
  for (const d of decisions) found.add(`order.review_${d}`);
  return found;
}

Deno.test("[audit] actions read as words", () => {
  assert.equal(auditActionLabel("reseller.top_up"), "Balance topped up");
  assert.equal(auditActionLabel("restricted_mlbb_user.create"), "Restricted user added");
  assert.equal(auditActionLabel("order.review_refund"), "Order refunded");
  assert.equal(auditActionLabel("api_key.revoke"), "API key revoked");
  // One written before this table knew it still reads as words.
  assert.equal(auditActionLabel("coupon.bulk_issue"), "Coupon bulk issue");
});

Deno.test("[audit] every action the domain writes has its own words", () => {
  const written = actionsWritten();
  assert.ok(written.size >= 30, `found ${written.size} actions`);
  const fallback = (action: string) =>
    action.replace(/[._]+/g, " ").replace(/^./, (c) => c.toUpperCase());
  for (const action of written) {
    assert.notEqual(auditActionLabel(action), fallback(action), `${action} has no words`);
  }
});

Deno.test("[audit] the action filter finds actions by their words", () => {
  assert.deepEqual(auditActionsWorded("restricted user").sort(), [
    "restricted_mlbb_user.create",
    "restricted_mlbb_user.delete",
  ]);
  assert.deepEqual(auditActionsWorded("TOPPED"), ["reseller.top_up"]);
  assert.deepEqual(auditActionsWorded("  "), []);
});
