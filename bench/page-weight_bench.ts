// `npm run bench -- page-weight`: gzipped JavaScript per route against its budget (the same
// measure `npm test` checks in tests/api/page-weight_test.ts). Builds first when sources changed.
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createTestDatabase } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { TestClient } from "../tests/helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../tests/helpers/sessions.ts";
import { BUDGETS, kib, measurePages } from "../tests/helpers/page-weight.ts";
import { appendResults } from "./results.ts";

if (buildIsStale()) await buildApp();
const tdb = await createTestDatabase("pglite");
const server = await startTestServer(tdb);
try {
  const weights = await measurePages({
    visitor: new TestClient(server.url),
    reseller: await signInDemoReseller(server.url),
    admin: await signInDemoAdmin(server.url),
  });
  const table = [
    "| route | script files | raw | gzipped files | inline (gzipped) | total gzipped | budget | within |",
    "| ----- | ------------ | --- | ------------- | ---------------- | ------------- | ------ | ------ |",
    ...weights.map((w) =>
      `| ${w.path} | ${w.files.length} | ${kib(w.raw)} | ${kib(w.gzipped)} | ${
        kib(w.inlineGzipped)
      } | ${kib(w.total)} | ${kib(BUDGETS[w.area])} | ${
        w.total <= BUDGETS[w.area] ? "yes" : "NO"
      } |`
    ),
  ];
  console.log(table.join("\n"));
  await appendResults("Page weight", "npm run bench -- page-weight", [
    "Byte counts do not depend on the machine's load. Budgets: consumer pages 30 KiB, reseller",
    "and admin 150 KiB (files plus inline scripts, gzipped at the default level file by file).",
    "",
    ...table,
  ]);
} finally {
  await server.stop();
  await tdb.drop();
}
