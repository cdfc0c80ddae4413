import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { precompressClientFiles } from "../src/server/static-files.ts";

const STAMP = "dist/.build-stamp";
const INPUTS = ["src", "static", "astro.config.mjs", "package-lock.json"];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** True when dist/ is missing or older than any source file. */
export function buildIsStale(root = "."): boolean {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, "dist/server/entry.mjs"))) {
    return true;
  }
  const built = statSync(stamp).mtimeMs;
  return INPUTS.some((p) => newestMtime(join(root, p)) > built);
}

/** Runs `astro build` under Deno, precompresses the client files and stamps the result. */
export async function buildApp(root = "."): Promise<void> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "node_modules/astro/bin/astro.mjs", "build"],
    cwd: root,
    env: { ASTRO_TELEMETRY_DISABLED: "1" },
    stdout: "inherit",
    stderr: "inherit",
  });
  const { code } = await cmd.output();
  if (code !== 0) throw new Error(`astro build failed (exit ${code})`);
  const started = performance.now();
  const compressed = await precompressClientFiles(join(root, "dist/client"));
  console.log(
    `Precompressed ${compressed} client files (br, gzip) in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  await Deno.writeTextFile(join(root, STAMP), new Date().toISOString());
}
