// `npm run cli -- worker` under a process manager: a SIGTERM to npm, the process it started, stops
// the worker itself, leaving no process behind.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";

/** Every process below `pid`, from /proc (Linux). */
function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    const children = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/children`).trim();
    for (const child of children ? children.split(" ").map(Number) : []) {
      found.push(child, ...descendantsOf(child));
    }
  }
  return found;
}

/** Whether `pid` still runs (a zombie waiting for its parent has stopped). */
function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

Deno.test({
  name: "[worker] SIGTERM to `npm run cli -- worker` stops the worker, leaving no process behind",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const npm = new Deno.Command("npm", {
      args: ["run", "--silent", "cli", "--", "--quiet", "worker"],
      env: { ...tdb.env, LOG_LEVEL: "warn" },
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = npm.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let below: number[] = [];
    try {
      let seen = "";
      while (!seen.includes("Worker running")) {
        const { value, done } = await lines.read();
        assert.ok(!done, `the worker ended before it ran: ${seen}`);
        seen += value;
      }
      below = descendantsOf(npm.pid);
      assert.ok(below.length > 0, "npm started the worker");
      npm.kill("SIGTERM");
      await npm.status;
      for (let i = 0; i < 200 && below.some(running); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(below.filter(running), [], "every process under npm stopped");
    } finally {
      for (const pid of below.filter(running)) Deno.kill(pid, "SIGKILL");
      while (below.some(running)) await new Promise((resolve) => setTimeout(resolve, 50));
      await lines.cancel().catch(() => {});
      await tdb.drop();
    }
  },
});
