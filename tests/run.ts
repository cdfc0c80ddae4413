// `npm test`: runs every suite: the static checks (`deno fmt --check`, `deno lint`, `deno check`,
// as `npm run check`), unit and integration tests once, database and API tests on PGlite and (when
// TEST_DATABASE_URL is set) on PostgreSQL, and the browser tests when Chromium is installed. Under
// CI (the CI variable set) a missing PostgreSQL or Chromium fails the run instead of skipping its
// suites.
//
// Everything runs in one pool of TEST_JOBS processes (default 3): each database, API and browser
// file in its own `deno test` process (every file makes its own database and server, so files
// share nothing), the unit suite as one, each static check as one. Most files spend their time
// waiting (on a server starting, a supplier timeout, a browser), so three at a time keep two cores
// busy; the longest files start first (tests/timings.json, the seconds each took in a measured
// run; TEST_SAVE_TIMINGS=1 rewrites it), so the run does not end on one long file started late.
// At most TEST_BROWSER_JOBS browser files (default 1) run at once: two Chromiums race each other's
// clicks. The build and the template databases are made while the static checks and unit tests
// already run. Each file's output is printed whole when it ends, and the slowest ten files close
// the run. Closes with one line that CI reads: "N passed, N failed, N skipped" (skipped = ignored
// tests plus the tests of suites not run).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, buildIsStale } from "../cli/build.ts";
import { type Backend, createDatabaseTemplate } from "./helpers/backends.ts";
import { simulationParts } from "./helpers/simulation-size.ts";

interface Suite {
  name: string;
  paths: string[];
  env?: Record<string, string>;
  /** Needs the built app (it starts servers). */
  needsBuild?: boolean;
  /** Needs the template databases. */
  needsDatabase?: boolean;
  /** Browser files: at most TEST_BROWSER_JOBS at once, and a failed file is run once more. */
  browser?: boolean;
  /** Each file in its own process; unset: the suite runs as one process. */
  perFile?: boolean;
}

interface RunResult {
  /** CPU seconds of its process and that process's children, where the platform tells. */
  cpu?: number;
  passed: number;
  failed: number;
  ignored: number;
  /** The test files named in the FAILURES section. */
  failedFiles: string[];
  /** Each failed test's name and the first lines of its error, for the list that ends the run. */
  failures?: string[];
}

/** One process of the run: a test file (or a whole suite), or a static check. */
interface Task {
  suite: Suite;
  /** The name its time is kept under: the file, and its backend when it has one. */
  key: string;
  /** Expected seconds (tests/timings.json), for starting the longest first. */
  expected: number;
  run(): Promise<RunResult>;
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

const jobs = Math.max(1, Number(Deno.env.get("TEST_JOBS") ?? 3) || 1);
const browserJobs = Math.max(1, Number(Deno.env.get("TEST_BROWSER_JOBS") ?? 1) || 1);
const staticChecks: Suite = { name: "static checks", paths: [] };
// Many small files that share nothing slow: one process is quicker than one per file.
const suites: Suite[] = [{
  name: "unit and integration",
  paths: ["tests/unit", "tests/integrations"],
}];
for (const b of backends) {
  const shared = { env: b.env, needsDatabase: true, perFile: true };
  suites.push({ name: `database on ${b.name}`, paths: ["tests/db"], ...shared });
  suites.push({ name: `API on ${b.name}`, paths: ["tests/api"], needsBuild: true, ...shared });
}
const browser: Suite = {
  name: "browser (Chromium)",
  paths: ["tests/e2e"],
  env: { CHROMIUM_PATH: chromium },
  needsBuild: true,
  browser: true,
  perFile: true,
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

const runSuites = suites.filter(selected);
const runStarted = performance.now();

// The build and each backend's migrated, empty database (every test database is a copy of it) are
// made while the tasks that need neither already run.
const built: Promise<void> = runSuites.some((s) => s.needsBuild) && buildIsStale()
  ? (console.log("Building the app for the API and browser tests…"), buildApp())
  : Promise.resolve();
const templates: { drop(): Promise<void> }[] = [];
const templateEnv: Record<string, string> = {};
const templatesMade: Promise<void> = runSuites.some((s) => s.needsDatabase)
  ? Promise.all(backends.map(async (b) => {
    const template = await createDatabaseTemplate(b.env.TEST_BACKEND as "pglite" | "postgres");
    Object.assign(templateEnv, template.env);
    templates.push(template);
  })).then(() => {})
  : Promise.resolve();

// Whether each is done (made or failed: a failure is reported by each task that waits for it).
let builtDone = false;
let templatesDone = false;
const builtSettled = built.catch(() => {}).then(() => void (builtDone = true));
const templatesSettled = templatesMade.catch(() => {}).then(() => void (templatesDone = true));
/** A task starts once what it needs is made, so that the pool runs others meanwhile. */
const canStart = (task: Task) =>
  (!task.suite.needsBuild || builtDone) && (!task.suite.needsDatabase || templatesDone);

/** The longest one `deno test` process may run (a whole suite when it is one process). */
const FILE_TIMEOUT_MS = (Deno.env.get("LONG") ? 150 : 25) * 60_000;

/**
 * Runs `deno test` on paths and reads its closing counts; its output is printed whole when it
 * ends, so processes running side by side do not interleave.
 */
async function runTests(
  paths: string[],
  env: Record<string, string> = {},
): Promise<RunResult & { output: string }> {
  // Where the process writes its CPU seconds as it ends (tests/helpers/cpu-report.ts).
  const cpuFile = join(
    tmpdir(),
    `topup-test-cpu-${crypto.randomUUID()}`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--no-check", "--preload", "tests/helpers/cpu-report.ts", ...paths],
    env: {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      // Passwords hashed at scrypt N=2^12 instead of production's 2^17: a check takes ~10 ms, not
      // ~500, and the suite signs in hundreds of times. The hashing itself is the same code;
      // production refuses a cost under 17 (tests/unit/config_test.ts).
      SCRYPT_LOG_N: Deno.env.get("SCRYPT_LOG_N") ?? "12",
      ...templateEnv,
      ...env,
      TEST_CPU_FILE: cpuFile,
    },
    stdout: "piped",
    stderr: "piped",
    // A file that hangs fails on its own instead of holding the whole run until CI's limit.
    signal: AbortSignal.timeout(FILE_TIMEOUT_MS),
  }).spawn();
  const [out, errors, { code, signal }] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  const cpu = existsSync(cpuFile) ? Number(readFileSync(cpuFile, "utf8")) : undefined;
  await Deno.remove(cpuFile).catch(() => {});
  let output = `${out}${errors}`;
  if (signal) output += `\n${paths.join(" ")}: stopped after ${FILE_TIMEOUT_MS / 60_000} min`;
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
    failures: errorExcerpts(out),
    output,
    cpu,
  };
}

/**
 * Each failed test in deno test's ERRORS section: its "name => file:line" and the first lines of
 * its error without the stack. CI keeps only the end of a run's output, where these are repeated.
 */
function errorExcerpts(out: string): string[] {
  const start = out.lastIndexOf(" ERRORS ");
  if (start < 0) return [];
  const end = out.indexOf(" FAILURES ", start);
  const lines = out.slice(start, end < 0 ? undefined : end).split("\n").slice(1);
  const excerpts: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (!/ => \S+:\d+:\d+$/.test(line)) continue;
    const next = lines.slice(i + 1).findIndex((l) =>
      /^\s+at /.test(l) || / => \S+:\d+:\d+$/.test(l)
    );
    const body = lines.slice(i + 1, i + 1 + (next < 0 ? 8 : Math.min(next, 8)))
      .filter((l) => l.trim() && !/^\s*\^\s*$/.test(l));
    excerpts.push([line, ...body.map((l) => `    ${l}`)].join("\n"));
  }
  return excerpts;
}

/** The `_test.ts` files under `paths`, sorted. */
function testFiles(paths: string[]): string[] {
  return paths.flatMap((dir) =>
    [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && e.name.endsWith("_test.ts"))
      .map((e) => join(dir, e.name))
  ).sort();
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

/** Runs one static check; its output printed whole when it ends. */
async function runStaticCheck(check: { name: string; args: string[] }): Promise<RunResult> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: check.args,
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  const output = `${decoder.decode(stdout)}${decoder.decode(stderr)}`;
  console.log(`\n--- ${check.name}\n${output}`);
  // The failures list shows the files the check names (fmt: "from …", lint and check: "at …").
  const named = output.split("\n").filter((line) => /^(from|error|\s*at) /.test(line.trim() + " "));
  return code === 0 ? { passed: 1, failed: 0, ignored: 0, failedFiles: [] } : {
    passed: 0,
    failed: 1,
    ignored: 0,
    failedFiles: [check.name],
    failures: [named.slice(0, 20).join("\n") || output.trim().split("\n").slice(-20).join("\n")],
  };
}

/** Run in parts, side by side (simulationParts). */
const SIMULATION = "tests/api/simulation_test.ts";

/** Per suite, its files marked "One backend" that run on the other backend only. */
const leftToOtherBackend = new Map<Suite, number>();

/**
 * A test file whose opening comment says "One backend": what it tests does not depend on the
 * database.
 */
function oneBackend(file: string): boolean {
  return /^\/\/ One backend\b/m.test(readFileSync(file, "utf8").split("\nimport ")[0]);
}

const TIMINGS_FILE = "tests/timings.json";
const timings: Record<string, number> = existsSync(TIMINGS_FILE)
  ? JSON.parse(readFileSync(TIMINGS_FILE, "utf8"))
  : {};
/** A file not in tests/timings.json yet is taken to be a long one, so it does not end the run. */
const UNKNOWN_SECONDS = 60;

/** Each suite's task or tasks. */
function tasksOf(suite: Suite): Task[] {
  const backend = suite.env?.TEST_BACKEND;
  const task = (key: string, run: () => Promise<RunResult>): Task => ({
    suite,
    key,
    expected: timings[key] ?? UNKNOWN_SECONDS,
    run,
  });
  const ready = async () => {
    if (suite.needsBuild) await built;
    if (suite.needsDatabase) await templatesMade;
  };
  const printed = async (title: string, paths: string[], env: Record<string, string> = {}) => {
    await ready();
    const started = performance.now();
    const result = await runTests(paths, { ...suite.env, ...env });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpu = result.cpu === undefined ? "" : `, CPU ${result.cpu.toFixed(1)} s`;
    console.log(`\n=== ${suite.name}: ${title} (${seconds} s${cpu}) ===\n${result.output}`);
    return result;
  };
  const paths = suite.paths.filter((p) => existsSync(p));
  if (!paths.length) return [];
  if (!suite.perFile) return [task(suite.name, () => printed(paths.join(" "), paths))];
  // A file marked "// One backend" runs on the last backend of the run only (PostgreSQL when it
  // can): what it tests is the same whatever the database.
  const files = testFiles(paths).filter((file) =>
    !backend || backend === backends.at(-1)!.env.TEST_BACKEND || !oneBackend(file)
  );
  leftToOtherBackend.set(suite, testFiles(paths).length - files.length);
  const long = Boolean(Deno.env.get("LONG"));
  return files.flatMap((file) =>
    file === SIMULATION && backend
      ? simulationParts(backend as Backend, long).map(({ firstSeed, seeds }) => {
        const range = `seeds ${firstSeed}-${firstSeed + seeds - 1}`;
        return task(`${file} (${backend}) ${range}`, async () => {
          const env = { SIM_FIRST_SEED: String(firstSeed), SIM_SEEDS: String(seeds) };
          const result = await printed(`${file} ${range}`, [file], env);
          return { ...result, failedFiles: result.failed > 0 ? [file] : [] };
        });
      })
      : [fileTask(file)]
  );
  function fileTask(file: string): Task {
    return task(`${file}${backend ? ` (${backend})` : ""}`, async () => {
      const result = await printed(file, [file]);
      return { ...result, failedFiles: result.failed > 0 ? [file] : [] };
    });
  }
}

const tasks: Task[] = [];
if (selected(staticChecks)) {
  for (const check of STATIC_CHECKS) {
    tasks.push({
      suite: staticChecks,
      key: check.name,
      expected: timings[check.name] ?? UNKNOWN_SECONDS,
      run: () => runStaticCheck(check),
    });
  }
}
for (const suite of runSuites) tasks.push(...tasksOf(suite));

/** How long each task took, for the slowest-ten list and tests/timings.json, and its CPU. */
const seconds = new Map<string, number>();
const cpuSeconds = new Map<string, number>();
/** Each failed task's failures, by its key, for the list that ends the run. */
const failureReports = new Map<string, string>();
const results = new Map<Suite, RunResult>();
const record = (suite: Suite, r: RunResult) => {
  const a = results.get(suite) ?? { passed: 0, failed: 0, ignored: 0, failedFiles: [] };
  results.set(suite, {
    passed: a.passed + r.passed,
    failed: a.failed + r.failed,
    ignored: a.ignored + r.ignored,
    failedFiles: [...a.failedFiles, ...r.failedFiles],
  });
};

/** Runs the tasks, `jobs` at a time, the longest expected first, browser files one at a time. */
async function runPool(queue: Task[]): Promise<void> {
  queue.sort((a, b) => b.expected - a.expected);
  const running = new Set<Promise<void>>();
  let browsers = 0;
  while (queue.length || running.size) {
    let i: number;
    while (
      running.size < jobs &&
      (i = queue.findIndex((t) => (!t.suite.browser || browsers < browserJobs) && canStart(t))) >=
        0
    ) {
      const [task] = queue.splice(i, 1);
      if (task.suite.browser) browsers++;
      const started = performance.now();
      const done: Promise<void> = task.run().catch((error): RunResult => {
        console.log(`\n=== ${task.key}: could not run ===\n${error?.stack ?? error}`);
        return { passed: 0, failed: 1, ignored: 0, failedFiles: [task.key] };
      }).then((result) => {
        seconds.set(task.key, (performance.now() - started) / 1000);
        if (result.cpu !== undefined) cpuSeconds.set(task.key, result.cpu);
        if (result.failed > 0) {
          const excerpts = result.failures?.length ? result.failures : ["(no ERRORS section)"];
          failureReports.set(task.key, excerpts.map((e) => `  ${e}`).join("\n"));
        }
        record(task.suite, result);
      }).finally(() => {
        if (task.suite.browser) browsers--;
        running.delete(done);
      });
      running.add(done);
    }
    // Waits for a task to end, or for the build or the templates that the next task may need.
    const waits = [...running];
    if (!builtDone) waits.push(builtSettled);
    if (!templatesDone) waits.push(templatesSettled);
    await Promise.race(waits);
  }
}

await runPool(tasks);

// Browser tests race a real browser on a shared machine: a file that failed runs once more, alone,
// and a test that passes on that retry is counted as passed and listed as flaky.
const flaky: string[] = [];
const retryNotes = new Map<Suite, string>();
for (const suite of runSuites.filter((s) => s.browser)) {
  const run = results.get(suite);
  if (!run || run.failed === 0 || !run.failedFiles.length) continue;
  console.log(`\n=== ${suite.name}: retrying ${run.failedFiles.join(", ")} once ===`);
  const retry = await runTests(run.failedFiles, suite.env);
  console.log(retry.output);
  const recovered = Math.max(0, run.failed - retry.failed);
  if (recovered > 0) {
    const passedOnRetry = run.failedFiles.filter((f) => !retry.failedFiles.includes(f));
    flaky.push(...passedOnRetry);
    for (const file of passedOnRetry) failureReports.delete(file);
    retryNotes.set(suite, `, ${recovered} flaky (failed, then passed on the retry)`);
  }
  run.passed += recovered;
  run.failed = retry.failed;
}

let passed = 0;
let failed = 0;
let skipped = 0;
const summary: string[] = [];
for (const suite of [staticChecks, ...runSuites]) {
  const run = results.get(suite);
  if (!run) continue;
  passed += run.passed;
  failed += run.failed;
  skipped += run.ignored;
  summary.push(
    suite === staticChecks
      ? `static checks: ${run.passed} passed, ${run.failed} failed` +
        (run.failedFiles.length ? ` (${run.failedFiles.join(", ")})` : "")
      : `${suite.name}: ${run.passed} passed, ${run.failed} failed, ${run.ignored} skipped${
        retryNotes.get(suite) ?? ""
      }${
        leftToOtherBackend.get(suite)
          ? ` (${leftToOtherBackend.get(suite)} one-backend files run on ${backends.at(-1)!.name})`
          : ""
      }`,
  );
}
for (const suite of notRun.filter(selected)) {
  const count = declaredTests(suite);
  skipped += count;
  summary.push(`${suite.name}: not run, ${count} skipped`);
}

if (seconds.size) {
  console.log("\n=== slowest files ===");
  const slowest = [...seconds].sort(([, a], [, b]) => b - a).slice(0, 10);
  for (const [key, s] of slowest) console.log(`${s.toFixed(1).padStart(7)} s  ${key}`);
}
if (cpuSeconds.size) {
  const total = [...cpuSeconds.values()].reduce((a, b) => a + b, 0);
  console.log(`\n=== most CPU (all files: ${total.toFixed(0)} s) ===`);
  const most = [...cpuSeconds].sort(([, a], [, b]) => b - a).slice(0, 10);
  for (const [key, s] of most) console.log(`${s.toFixed(1).padStart(7)} s  ${key}`);
}
if (Deno.env.get("TEST_SAVE_TIMINGS")) {
  const rounded = Object.fromEntries(
    [...seconds].sort(([a], [b]) => a.localeCompare(b)).map(([k, s]) => [k, Math.round(s)]),
  );
  writeFileSync(TIMINGS_FILE, JSON.stringify({ ...timings, ...rounded }, null, 2) + "\n");
  console.log(`Saved each file's time to ${TIMINGS_FILE}.`);
}
if (failureReports.size) {
  console.log("\n=== failures ===");
  for (const [key, report] of failureReports) console.log(`${key}:\n${report}`);
}
console.log("\n=== summary ===");
for (const line of summary) console.log(line);
for (const file of flaky) console.log(`flaky: ${file} failed once and passed on the retry`);
for (const template of templates) await template.drop();
console.log(
  `whole run: ${((performance.now() - runStarted) / 60_000).toFixed(1)} min, ${jobs} at a time`,
);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
Deno.exit(failed === 0 && passed > 0 ? 0 : 1);
