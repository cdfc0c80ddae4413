// Regenerates examples/reseller-api.d.ts, the reseller API's types for a TypeScript client, from
// its OpenAPI document with openapi-typescript:
//   node_modules/.bin/deno run -A examples/generate-types.ts
// tests/unit/reseller-api-document_test.ts fails when the committed file is not what this makes.
import { buildOpenApiDocument } from "../src/server/openapi.ts";

/** The server the document is built for here: types do not depend on it. */
export const DOCUMENT_SERVER = "https://reseller.topup.test";

async function run(command: string, args: string[], input?: string): Promise<string> {
  const child = new Deno.Command(command, {
    args,
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) throw new Error(`${command} failed: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

/** The types file's text: openapi-typescript's output, formatted as the repository's code. */
export async function generateResellerApiTypes(): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/openapi.json`;
    await Deno.writeTextFile(file, JSON.stringify(buildOpenApiDocument(DOCUMENT_SERVER)));
    const types = await run("node_modules/.bin/openapi-typescript", [file]);
    return await run(Deno.execPath(), ["fmt", "--ext=ts", "-"], types);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  await Deno.writeTextFile(
    new URL("./reseller-api.d.ts", import.meta.url),
    await generateResellerApiTypes(),
  );
}
