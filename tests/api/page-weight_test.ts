import assert from "node:assert/strict";
import { createTestDatabase, testBackend } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { BUDGETS, kib, measurePages } from "../helpers/page-weight.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

// The build is the same on both backends: measured once, on PGlite.
Deno.test({
  name: "[page weight] every route's gzipped JavaScript stays within its budget",
  ignore: testBackend() !== "pglite",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const weights = await measurePages({
        visitor: new TestClient(server.url),
        reseller: await signInDemoReseller(server.url),
        admin: await signInDemoAdmin(server.url),
      });
      // /consumers has its search box's few lines inline, no script file.
      const scripted = [
        "/consumers/mobile-legends",
        "/consumers/genshin-impact",
        "/resellers/home",
        "/admin/home",
      ];
      for (const path of scripted) {
        const page = weights.find((w) => w.path === path)!;
        assert.ok(page.files.length > 0, `${path}: no script found; the page parsing broke`);
      }
      const reference = weights.find((w) => w.path === "/resellers/api")!;
      const scalar = reference.files.filter((f) => /\/standalone\.[\w-]+\.js$/.test(f));
      assert.equal(scalar.length, 1, `the reference loads Scalar: ${reference.files.join(", ")}`);
      for (const w of weights.filter((w) => w !== reference)) {
        assert.ok(!w.files.includes(scalar[0]), `${w.path} loads the API reference's Scalar`);
      }
      const over = weights.filter((w) => w.total > BUDGETS[w.area]).map((w) =>
        `${w.path}: ${kib(w.total)} of JavaScript gzipped, over the ${w.area} budget of ${
          kib(BUDGETS[w.area])
        } (${w.files.join(", ")})`
      );
      assert.deepEqual(over, [], over.join("\n"));
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
