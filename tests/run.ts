// `npm test`: builds the app if needed, then runs every suite: the static checks (`deno fmt
// --check`, `deno lint`, `deno check`, as `npm run check`), unit and integration tests once,
// database and API tests on PGlite and (when TEST_DATABASE_URL is set) on PostgreSQL, and the
// browser tests when Chromium is installed. Under CI (the CI variable set) a missing PostgreSQL or
// Chromium fails the run instead of skipping its suites. The database, API and browser suites run
// each file in its own `deno test` process, TEST_JOBS files at a time (default 2; 1 for the
// browser): every file makes its own database and server, so files do not share state, and two
// at a time keep both cores busy while one waits on a server or a timeout. Each file's output is
// printed whole when it ends, and the slowest ten files close the run. Closes with one line that
// CI reads: "N passed, N failed, N skipped" (skipped = ignored tests plus the tests of suites not
// run).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createDatabaseTemplate } from "./helpers/backends.ts";

interface Suite {
  name: string;
  paths: string[];
  env?: Record<string, string>;
  /**
   * Browser tests race a real browser on a shared machine: a file that fails is run once more,
   * and a test that passes on that retry is counted as passed and listed as flaky.
   */
  retryFailedFiles?: boolean;
  /** Files run at once, each in its own process; unset: the suite runs as one process. */
  jobs?: number;
}

interface RunResult {
  passed: number;
  failed: number;
  ignored: number;
  /** The test files named in the FAILURES section. */
  failedFiles: string[];
}

const onCi = Boolean(Deno.env.get("CI"));
const missing: { what: string; effect: string }[] = [];
const notRun: Suite[] = [];
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
  missing.push({
    what: "TEST_DATABASE_URL is not set",
    effect: "database and API tests run on PGlite only",
  });
  notRun.push(
    { name: "database on PostgreSQL", paths: ["tests/db"] },
    { name: "API on PostgreSQL", paths: ["tests/api"] },
  );
}

const jobs = Math.max(1, Number(Deno.env.get("TEST_JOBS") ?? 2) || 1);
// Many small files that share nothing slow: one process is quicker than one per file.
const suites: Suite[] = [{
  name: "unit and integration",
  paths: ["tests/unit", "tests/integrations"],
}];
for (const b of backends) {
  suites.push({ name: `database on ${b.name}`, paths: ["tests/db"], env: b.env, jobs });
  suites.push({ name: `API on ${b.name}`, paths: ["tests/api"], env: b.env, jobs });
}
// One browser at a time: two Chromiums and their servers on two cores race each other's clicks.
const browser: Suite = {
  name: "browser (Chromium)",
  paths: ["tests/e2e"],
  env: { CHROMIUM_PATH: chromium },
  retryFailedFiles: true,
  jobs: Math.min(jobs, Number(Deno.env.get("TEST_BROWSER_JOBS") ?? 1) || 1),
};
if (existsSync(chromium)) suites.push(browser);
else {
  missing.push({ what: `Chromium not found at ${chromium}`, effect: "browser tests skipped" });
  notRun.push(browser);
}

if (onCi && missing.length) {
  for (const { what } of missing) console.error(`${what}: CI runs every suite, so this fails.`);
  Deno.exit(1);
}
for (const { what, effect } of missing) console.log(`${what}: ${effect}.`);

const filter = Deno.args[0];
const selected = (suite: Suite) =>
  !filter || suite.name.toLowerCase().includes(filter.toLowerCase());

/** The tests a suite declares, counted in its files, for a suite that is not run. */
function declaredTests(suite: Suite): number {
  let count = 0;
  for (const dir of suite.paths.filter((p) => existsSync(p))) {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile || !entry.name.endsWith("_test.ts")) continue;
      count += readFileSync(join(dir, entry.name), "utf8").split("Deno.test(").length - 1;
    }
  }
  return count;
}

if (buildIsStale()) {
  console.log("Building the app for the API and browser tests…");
  await buildApp();
}

// Each backend's migrated, empty database, made once: every test database is a copy of it.
const templateEnv: Record<string, string> = {};
const templates: { drop(): Promise<void> }[] = [];
if (suites.some((suite) => suite.paths.some((p) => p !== "tests/unit") && selected(suite))) {
  for (const b of backends) {
    const template = await createDatabaseTemplate(b.env.TEST_BACKEND as "pglite" | "postgres");
    Object.assign(templateEnv, template.env);
    templates.push(template);
  }
}

/** The longest one `deno test` process may run (a whole suite when it is one process). */
const FILE_TIMEOUT_MS = (Deno.env.get("LONG") ? 150 : 25) * 60_000;

/** How long each test file took, for the slowest-ten list. */
const fileSeconds = new Map<string, number>();

/**
 * Runs `deno test` on paths and reads its closing counts. Its output is echoed as it comes, or,
 * with `buffered`, printed whole when it ends, so files running side by side do not interleave.
 */
async function runTests(
  paths: string[],
  env: Record<string, string> = {},
  buffered = false,
): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--no-check", ...paths],
    env: {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      // Passwords hashed at scrypt N=2^12 instead of production's 2^17: a check takes ~10 ms, not
      // ~500, and the suite signs in hundreds of times. The hashing itself is the same code;
      // production refuses a cost under 17 (tests/unit/config_test.ts).
      SCRYPT_LOG_N: Deno.env.get("SCRYPT_LOG_N") ?? "12",
      ...templateEnv,
      ...env,
    },
    stdout: "piped",
    stderr: buffered ? "piped" : "inherit",
    // A file that hangs fails on its own instead of holding the whole run until CI's limit.
    signal: AbortSignal.timeout(FILE_TIMEOUT_MS),
  }).spawn();
  let out = "";
  const decoder = new TextDecoder();
  const errors = buffered ? new Response(child.stderr).text() : Promise.resolve("");
  for await (const chunk of child.stdout) {
    out += decoder.decode(chunk);
    if (!buffered) await Deno.stdout.write(chunk);
  }
  const { code, signal } = await child.status;
  if (buffered) console.log(`${out}${await errors}`);
  if (signal) console.log(`${paths.join(" ")}: stopped after ${FILE_TIMEOUT_MS / 60_000} min`);
  const result =
    /(\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored)?/g;
  const m = [...out.matchAll(result)].at(-1);
  const failed = m ? Number(m[2]) : 0;
  const failures = out.slice(out.lastIndexOf(" FAILURES "));
  const failedFiles = [
    ...new Set([...failures.matchAll(/ => \.\/(\S+?_test\.ts):\d+:\d+/g)].map((f) => f[1])),
  ];
  return {
    passed: m ? Number(m[1]) : 0,
    failed: failed + (code !== 0 && failed === 0 ? 1 : 0),
    ignored: m?.[3] ? Number(m[3]) : 0,
    failedFiles,
  };
}

/** Adds `b`'s counts and failed files to `a`. */
function addResults(a: RunResult, b: RunResult): RunResult {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    ignored: a.ignored + b.ignored,
    failedFiles: [...a.failedFiles, ...b.failedFiles],
  };
}

/** The `_test.ts` files under `paths`, sorted. */
function testFiles(paths: string[]): string[] {
  return paths.flatMap((dir) =>
    [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && e.name.endsWith("_test.ts"))
      .map((e) => join(dir, e.name))
  ).sort();
}

/** Runs each file in its own process, `jobs` at a time; the counts of all of them. */
async function runFiles(
  files: string[],
  env: Record<string, string> | undefined,
  jobs: number,
): Promise<RunResult> {
  let total: RunResult = { passed: 0, failed: 0, ignored: 0, failedFiles: [] };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const started = performance.now();
      const result = await runTests([file], env, true);
      fileSeconds.set(
        `${file}${env?.TEST_BACKEND ? ` (${env.TEST_BACKEND})` : ""}`,
        (performance.now() - started) / 1000,
      );
      total = addResults(total, {
        ...result,
        failedFiles: result.failed > 0 ? [file] : [],
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  return total;
}

/**
 * The static checks of `npm run check`, one count each: the tests themselves run with --no-check,
 * so a type error or an unused import would otherwise reach main unnoticed.
 */
const STATIC_CHECKS: { name: string; args: string[] }[] = [
  { name: "deno fmt --check", args: ["fmt", "--check"] },
  { name: "deno lint", args: ["lint"] },
  { name: "deno check", args: ["check", "cli", "src", "tests", "bench", "examples"] },
];

/** Runs each static check, echoing its output; returns the names of those that failed. */
async function runStaticChecks(): Promise<string[]> {
  const failures: string[] = [];
  for (const check of STATIC_CHECKS) {
    console.log(`--- ${check.name}`);
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: check.args,
      env: { NO_COLOR: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) failures.push(check.name);
  }
  return failures;
}

let passed = 0;
let failed = 0;
let skipped = 0;
const summary: string[] = [];
const flaky: string[] = [];
if (selected({ name: "static checks", paths: [] })) {
  console.log("\n=== static checks ===");
  const failures = await runStaticChecks();
  passed += STATIC_CHECKS.length - failures.length;
  failed += failures.length;
  summary.push(
    `static checks: ${STATIC_CHECKS.length - failures.length} passed, ${failures.length} failed` +
      (failures.length ? ` (${failures.join(", ")})` : ""),
  );
}
for (const suite of suites) {
  if (!selected(suite)) continue;
  const paths = suite.paths.filter((p) => existsSync(p));
  if (!paths.length) continue;
  console.log(`\n=== ${suite.name} ===`);
  const run = suite.jobs
    ? await runFiles(testFiles(paths), suite.env, suite.jobs)
    : await runTests(paths, suite.env);
  let line = "";
  if (suite.retryFailedFiles && run.failed > 0 && run.failedFiles.length) {
    console.log(`\n=== ${suite.name}: retrying ${run.failedFiles.join(", ")} once ===`);
    const retry = await runTests(run.failedFiles, suite.env);
    const recovered = Math.max(0, run.failed - retry.failed);
    if (recovered > 0) {
      flaky.push(...run.failedFiles.filter((f) => !retry.failedFiles.includes(f)));
      line = `, ${recovered} flaky (failed, then passed on the retry)`;
    }
    run.passed += recovered;
    run.failed = retry.failed;
  }
  passed += run.passed;
  failed += run.failed;
  skipped += run.ignored;
  summary.push(
    `${suite.name}: ${run.passed} passed, ${run.failed} failed, ${run.ignored} skipped${line}`,
  );
}
for (const suite of notRun.filter(selected)) {
  const count = declaredTests(suite);
  skipped += count;
  summary.push(`${suite.name}: not run, ${count} skipped`);
}

if (fileSeconds.size) {
  console.log("\n=== slowest files ===");
  const slowest = [...fileSeconds].sort(([, a], [, b]) => b - a).slice(0, 10);
  for (const [file, seconds] of slowest) {
    console.log(`${seconds.toFixed(1).padStart(7)} s  ${file}`);
  }
}
console.log("\n=== summary ===");
for (const line of summary) console.log(line);
for (const file of flaky) console.log(`flaky: ${file} failed once and passed on the retry`);
for (const template of templates) await template.drop();
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
Deno.exit(failed === 0 && passed > 0 ? 0 : 1);
