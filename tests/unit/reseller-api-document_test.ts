// The reseller API's OpenAPI document passes Redocly's strictest built-in ruleset
// (recommended-strict: every warning an error; it also checks each example against its schema),
// and the committed client types (examples/reseller-api.d.ts) are what openapi-typescript makes
// of it today.
import assert from "node:assert/strict";
import { buildOpenApiDocument } from "../../src/server/openapi.ts";
import { DOCUMENT_SERVER, generateResellerApiTypes } from "../../examples/generate-types.ts";

Deno.test("[openapi] the reseller API's document passes redocly lint --extends recommended-strict", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/openapi.json`;
    await Deno.writeTextFile(file, JSON.stringify(buildOpenApiDocument(DOCUMENT_SERVER)));
    const { code, stdout, stderr } = await new Deno.Command("node_modules/.bin/redocly", {
      args: ["lint", "--extends", "recommended-strict", "--format", "json", file],
      env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    const report = JSON.parse(out.slice(out.indexOf("{")));
    assert.deepEqual(
      report.problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`),
      [],
      new TextDecoder().decode(stderr),
    );
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
    assert.equal(code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[openapi] examples/reseller-api.d.ts is what openapi-typescript makes of the document", async () => {
  const committed = await Deno.readTextFile(
    new URL("../../examples/reseller-api.d.ts", import.meta.url),
  );
  assert.ok(
    committed === await generateResellerApiTypes(),
    "the types are stale: run node_modules/.bin/deno run -A examples/generate-types.ts",
  );
});
