// README's cron lines, run as cron runs them but stricter: under `env -i`, with nothing but what
// the environment file they read gives them. When all is well each exits 0 and prints nothing (cron
// mails any output); when the file lacks the database, the line fails and says what to set.
import assert from "node:assert/strict";
import { mountSimulators, serveSimulatorsAlone } from "../../cli/simulators.ts";
import { loadConfig } from "../../src/config.ts";
import { createSuppliers } from "../../src/integrations/suppliers.ts";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { pendingPubgOrders } from "../helpers/orders.ts";

const backend = testBackend();
const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** The commands of README's `/etc/cron.d/topup` block, each with its schedule and user taken off. */
function readmeCronCommands(): string[] {
  const readme = Deno.readTextFileSync(`${ROOT}/README.md`);
  const block = /```sh\n# \/etc\/cron\.d\/topup[^\n]*\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "README has an /etc/cron.d/topup block");
  const commands = block[1].split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"))
    .map((line) => line.trim().split(/\s+/).slice(6).join(" "));
  assert.ok(commands.length >= 4, "the refresh, reconcile, price sync and backup lines");
  return commands;
}

/** A README command as cron would run it here: this checkout, these files; cron's `\%` is `%`. */
function localized(command: string, envFile: string, backups: string): string {
  return command.replaceAll("/srv/topup", ROOT).replaceAll("/etc/topup.env", envFile)
    .replaceAll("/backups", backups).replaceAll("\\%", "%");
}

/** Runs `command` with `sh -c` under `env -i`: no variable from this process gets through. */
async function underEnvI(command: string) {
  const { code, stdout, stderr } = await new Deno.Command("env", {
    args: ["-i", "sh", "-c", command],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(180_000),
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

Deno.test({
  name:
    `[cron:${backend}] README's cron lines run under env -i with only the environment file, and say nothing when all is well`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const simulators = await serveSimulatorsAlone(mountSimulators(loadConfig({})));
    const dir = await Deno.makeTempDir({ prefix: "topup-cron-" });
    try {
      Deno.env.set("TOPUP_INTERNAL_URL", simulators.url);
      const suppliers = createSuppliers(loadConfig({}));
      await withHandle(tdb, (db) => pendingPubgOrders(db, suppliers, 1));

      const envFile = `${dir}/topup.env`;
      const settings = {
        PATH: Deno.env.get("PATH")!,
        ...tdb.env,
        TOPUP_INTERNAL_URL: simulators.url,
        ...Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {},
      };
      await Deno.writeTextFile(
        envFile,
        Object.entries(settings).map(([key, value]) => `${key}='${value}'\n`).join(""),
      );
      await Deno.mkdir(`${dir}/backups`);
      for (const command of readmeCronCommands()) {
        const run = await underEnvI(localized(command, envFile, `${dir}/backups`));
        assert.deepEqual(run, { code: 0, stdout: "", stderr: "" }, command);
      }
      const [backup] = [...Deno.readDirSync(`${dir}/backups`)];
      assert.match(backup.name, /^topup-\d{4}-\d{2}-\d{2}\.dump$/);
      assert.equal(Deno.statSync(`${dir}/backups/${backup.name}`).mode! & 0o777, 0o600);

      // DATA_DIR names a folder that is not there, whatever this checkout's ./data holds.
      await Deno.writeTextFile(envFile, `PATH='${settings.PATH}'\nDATA_DIR='${dir}/none'\n`);
      for (const command of readmeCronCommands()) {
        const run = await underEnvI(localized(command, envFile, `${dir}/backups`));
        assert.notEqual(run.code, 0, command);
        assert.match(run.stderr, /^Error: No database: DATABASE_URL is not set/m, command);
      }
    } finally {
      simulators.close();
      await Deno.remove(dir, { recursive: true });
      await tdb.drop();
    }
  },
});
