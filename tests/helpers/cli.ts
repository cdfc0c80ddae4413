/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `cli/main.ts ARGS` as an operator would, in a process of its own with only `env` (and
 * what Deno itself needs: PATH, HOME, its cache) set.
 */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"].flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    clearEnv: true,
    env: { ...inherited, DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}
