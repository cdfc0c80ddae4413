// Preloaded into each `deno test` process by tests/run.ts: when the process ends, writes the CPU
// seconds it used (user + system, its ended children's included: servers, browsers) to the file
// TEST_CPU_FILE names, for the run's per-file CPU list. Linux only (/proc); elsewhere it writes
// nothing.
const file = Deno.env.get("TEST_CPU_FILE");
if (file) {
  addEventListener("unload", () => {
    try {
      const stat = Deno.readTextFileSync("/proc/self/stat");
      // The fields after the command name: utime, stime, cutime, cstime are the 12th to 15th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
      Deno.writeTextFileSync(file, String(ticks / 100));
    } catch {
      // No /proc: no figure.
    }
  });
}
