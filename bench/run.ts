// `npm run bench -- NAME [args]`: runs bench/NAME_bench.ts with the remaining arguments.
import { existsSync } from "node:fs";

const [name, ...args] = Deno.args;
const names = [...Deno.readDirSync("bench")].map((e) => e.name)
  .filter((n) => n.endsWith("_bench.ts")).map((n) => n.slice(0, -"_bench.ts".length)).sort();
if (!name || !existsSync(`bench/${name}_bench.ts`)) {
  console.error(`Usage: npm run bench -- NAME [args]; NAME is one of: ${names.join(", ")}`);
  Deno.exit(2);
}
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", `bench/${name}_bench.ts`, ...args],
}).spawn().status;
Deno.exit(code);
