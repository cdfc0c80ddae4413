// `npm test`: builds the app if needed, then runs every suite: unit and integration tests once,
// database and API tests on PGlite and (when TEST_DATABASE_URL is set) on PostgreSQL, and the
// browser tests when Chromium is installed. Prints one closing line: "N passed, N failed".
import { existsSync } from "node:fs";
import { buildApp, buildIsStale } from "../cli/build.ts";

interface Suite {
  name: string;
  paths: string[];
  env?: Record<string, string>;
}

const postgresUrl = Deno.env.get("TEST_DATABASE_URL");
const chromium = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const backends: { name: string; env: Record<string, string> }[] = [
  { name: "PGlite", env: { TEST_BACKEND: "pglite" } },
];
if (postgresUrl) {
  backends.push({
    name: "PostgreSQL",
    env: { TEST_BACKEND: "postgres", TEST_DATABASE_URL: postgresUrl },
  });
} else {
  console.log("TEST_DATABASE_URL is not set: database and API tests run on PGlite only.");
}

const suites: Suite[] = [{
  name: "unit and integration",
  paths: ["tests/unit", "tests/integrations"],
}];
for (const b of backends) {
  suites.push({ name: `database on ${b.name}`, paths: ["tests/db"], env: b.env });
  suites.push({ name: `API on ${b.name}`, paths: ["tests/api"], env: b.env });
}
if (existsSync(chromium)) {
  suites.push({
    name: "browser (Chromium)",
    paths: ["tests/e2e"],
    env: { CHROMIUM_PATH: chromium },
  });
} else {
  console.log(`Chromium not found at ${chromium}: browser tests skipped.`);
}

const filter = Deno.args[0];
if (buildIsStale()) {
  console.log("Building the app for the API and browser tests…");
  await buildApp();
}

let passed = 0;
let failed = 0;
const summary: string[] = [];
for (const suite of suites) {
  if (filter && !suite.name.toLowerCase().includes(filter.toLowerCase())) continue;
  const paths = suite.paths.filter((p) => existsSync(p));
  if (!paths.length) continue;
  console.log(`\n=== ${suite.name} ===`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--no-check", ...paths],
    env: { NO_COLOR: "1", ...suite.env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    const text = decoder.decode(chunk);
    out += text;
    await Deno.stdout.write(chunk);
  }
  const { code } = await child.status;
  const m = out.match(/(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/g)?.at(-1)
    ?.match(/(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/);
  const p = m ? Number(m[1]) : 0;
  const f = m ? Number(m[2]) : 0;
  const broken = code !== 0 && f === 0 ? 1 : 0;
  passed += p;
  failed += f + broken;
  summary.push(`${suite.name}: ${p} passed, ${f + broken} failed`);
}

console.log("\n=== summary ===");
for (const line of summary) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 && passed > 0 ? 0 : 1);
