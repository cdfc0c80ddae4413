// Every bench appends what it measured to bench/RESULTS.md: date, machine, command, figures.
import { cpus, release, totalmem } from "node:os";

/** The machine, as one line: cores, CPU model, memory, kernel, Deno. */
export function machine(): string {
  const cores = cpus();
  const gib = Math.round(totalmem() / 1024 ** 3);
  return `${cores.length} cores (${
    cores[0]?.model.trim() ?? "unknown CPU"
  }), ${gib} GiB RAM, Linux ${release()}, Deno ${Deno.version.deno}; load average ${
    Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
  } at the end of the run`;
}

/** Appends a dated section to bench/RESULTS.md. */
export async function appendResults(title: string, command: string, body: string[]) {
  const section = [
    "",
    `## ${title}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `Command: \`${command}\``,
    "",
    `Machine: ${machine()}.`,
    "",
    ...body,
    "",
  ].join("\n");
  await Deno.writeTextFile("bench/RESULTS.md", section, { append: true });
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", "bench/RESULTS.md"] }).output();
  console.log("\nAppended to bench/RESULTS.md.");
}
