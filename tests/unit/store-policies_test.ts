// The shop's policy pages: what an admin's plain text becomes on the page (headings and
// paragraphs, never markup).
import assert from "node:assert/strict";
import { hasPolicyText, policyBlocks } from "../../src/shared/store-policies.ts";

Deno.test("a policy's text: blank lines part paragraphs, '## ' lines are headings", () => {
  assert.deepEqual(
    policyBlocks(
      "## Who we are\r\nWe sell top-ups.\nLine two.\n\n\n##   Refunds  \nAsk us.\n  \n## \nLast",
    ),
    [
      { kind: "heading", text: "Who we are" },
      { kind: "paragraph", text: "We sell top-ups.\nLine two." },
      { kind: "heading", text: "Refunds" },
      { kind: "paragraph", text: "Ask us." },
      { kind: "paragraph", text: "##\nLast" },
    ],
  );
  assert.deepEqual(policyBlocks("<b>bold</b>"), [{ kind: "paragraph", text: "<b>bold</b>" }]);
  assert.deepEqual(policyBlocks(" \n\n "), []);
});

Deno.test("a policy with only blank space has no text, so no page and no footer link", () => {
  assert.equal(hasPolicyText(" \n\t"), false);
  assert.equal(hasPolicyText("Terms"), true);
});
