/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI's entry point, by absolute path, so a run may start in any folder. */
export const CLI_MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;

/** How a run starts: its working folder, what it reads on standard input, how long it may take. */
export interface CliRunOptions {
  cwd?: string;
  stdin?: string;
  timeoutMs?: number;
}

/**
 * Runs `cli/main.ts ARGS` as an operator would, in a process of its own with only `env` (and
 * what Deno itself needs: PATH, HOME, its cache) set. Standard input is not a terminal.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  { cwd, stdin, timeoutMs = 120_000 }: CliRunOptions = {},
): Promise<CliRun> {
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"].flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI_MAIN, ...args],
    cwd,
    clearEnv: true,
    env: { ...inherited, DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}
