import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import { assertInvariantsHold, createSignedInResellers, pubgOrderFor } from "../helpers/harness.ts";
import { SIM_SERVER_ENV } from "../helpers/simulation-size.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const scale = Deno.env.get("LONG") ? 5 : 1;
const RESELLERS = 20;
const SPREAD = 500 * scale;
const ON_ONE = 200 * scale;
const EXACT = 37 * scale;
const INSUFFICIENT = "Insufficient balance in your account, please check.";

Deno.test({
  name:
    `[load] ${SPREAD} concurrent orders across ${RESELLERS} resellers and ${ON_ONE} on a balance for exactly ${EXACT}: exactly ${EXACT} pass there, the rest get 403, no 5xx, invariants hold`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    // The whole burst connects at once: on PGlite (one core) a head can wait behind thousands of
    // orders for longer than the default 10 s head limit, and is then cut as a slow client (seen
    // in the long run's 3500: "Connection reset by peer"). Slow clients are slow-clients_test.ts's.
    const server = await startTestServer(tdb, { ...SIM_SERVER_ENV, HEADERS_TIMEOUT_MS: "60000" });
    try {
      const admin = await signInDemoAdmin(server.url);
      const [probe] = await createSignedInResellers(admin, 1, 0, "probe");
      const { body, cents } = await pubgOrderFor(probe);
      const perReseller = SPREAD / RESELLERS;
      const spread = await createSignedInResellers(admin, RESELLERS, perReseller * cents, "spread");
      const [exact] = await createSignedInResellers(admin, 1, EXACT * cents, "exact");

      const order = (client: typeof exact.client) => client.post("/api/reseller/place_order", body);
      const answers = await Promise.all([
        ...spread.flatMap((r) => Array.from({ length: perReseller }, () => order(r.client))),
        ...Array.from({ length: ON_ONE }, () => order(exact.client)),
      ]);
      const spreadAnswers = answers.slice(0, SPREAD);
      const exactAnswers = answers.slice(SPREAD);
      const count = (list: typeof answers, status: number) =>
        list.filter((a) => a.status === status).length;
      const figures = {
        requests: answers.length,
        created: count(answers, 201),
        refused: count(answers, 403),
        serverErrors: answers.filter((a) => a.status >= 500).length,
      };
      console.log(`load figures: ${JSON.stringify(figures)}`);
      assert.equal(figures.serverErrors, 0, answers.find((a) => a.status >= 500)?.text ?? "");
      assert.equal(count(spreadAnswers, 201), SPREAD, "every covered order passes");
      assert.equal(count(exactAnswers, 201), EXACT, "exactly the orders the balance covers");
      assert.equal(count(exactAnswers, 403), ON_ONE - EXACT);
      for (const refused of exactAnswers.filter((a) => a.status === 403)) {
        assert.equal(refused.json.error, INSUFFICIENT);
      }
      const balances = await Promise.all(
        [...spread, exact].map(async (r) =>
          Math.round((await r.client.get("/api/current_user")).json.user.balance * 100)
        ),
      );
      assert.ok(balances.every((b) => b === 0), `balances left: ${balances}`);
      await assertInvariantsHold(server.url);
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
