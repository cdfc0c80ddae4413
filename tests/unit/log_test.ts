import assert from "node:assert/strict";
import { censorSecrets } from "../../src/observability/log.ts";

Deno.test("[log] a secret key's value is censored, on the line and in an object it carries", () => {
  const nested = { user: "ana", password: "hunter2" };
  const fields = { msg: "signed in", token: "abc", session: nested, count: 3 };
  assert.deepEqual(censorSecrets(fields), {
    msg: "signed in",
    token: "[redacted]",
    session: { user: "ana", password: "[redacted]" },
    count: 3,
  });
  assert.equal(fields.token, "abc", "the caller's object is left as it is");
  assert.equal(nested.password, "hunter2");
  const clean = { msg: "job", job: 1, outcome: "done" };
  assert.equal(censorSecrets(clean), clean, "a line without secrets is passed on as it is");
});

/** What a child process printed that logged `lines` (a script body, `log` the logger) and ended. */
async function loggedBy(script: string): Promise<Record<string, unknown>[]> {
  const source = `import { logger } from "${
    new URL("../../src/observability/log.ts", import.meta.url).href
  }";\nconst log = logger();\n${script}`;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", source],
    env: { LOG_LEVEL: "info", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

Deno.test("[log] lines logged together are written in order, and none is lost at exit", async () => {
  const lines = await loggedBy(`
    for (let i = 0; i < 3; i++) log.info({ msg: "step", i });
    log.warn({ msg: "careful" });
    log.info({ msg: "step", i: 3 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.info({ msg: "later", apiKey: "k" });
    log.info({ msg: "last" });
    Deno.exit(0);
  `);
  assert.deepEqual(
    lines.map((line) => [line.level, line.msg, line.i ?? line.apiKey]),
    [
      ["info", "step", 0],
      ["info", "step", 1],
      ["info", "step", 2],
      ["warn", "careful", undefined],
      ["info", "step", 3],
      ["info", "later", "[redacted]"],
      ["info", "last", undefined],
    ],
  );
});

Deno.test("[log] a reader gone does not fail the code that logs", async () => {
  const source =
    `import { logger } from "${
      new URL("../../src/observability/log.ts", import.meta.url).href
    }";\nawait new Promise((resolve) => setTimeout(resolve, 200));\n` +
    `for (let i = 0; i < 1000; i++) logger().info({ msg: "x".repeat(200) });\n` +
    `await new Promise((resolve) => setTimeout(resolve, 10));\nlogger().error({ msg: "still here" });\n` +
    `console.error("done");`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", source],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await child.stdout.cancel();
  const stderr = new TextDecoder().decode((await child.output()).stderr);
  assert.equal(stderr.trim(), "done");
});
