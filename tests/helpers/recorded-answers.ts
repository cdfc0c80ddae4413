// The vendors' documented answers under tests/fixtures/<vendor>/, and a local server that answers
// every request with one of them, so a test runs the real client against the vendor's own shapes.

import { z } from "zod";
import {
  type SimulatorServer,
  startSimulatorServer,
} from "../../src/integrations/simulator-kit.ts";

/** The outside services whose answers are recorded. */
export type Vendor = "moogold" | "elitedias" | "yahoo";

/** One documented answer: the HTTP status and JSON body a vendor sends for one call. */
export interface RecordedAnswer {
  /**
   * Where the shape comes from, each a place anyone can open: a public repository's
   * owner/repo:path (with @commit where the file changed), a URL, or, where the public client that
   * showed it could not be found again (the note says so), the section of
   * shared/reference/external-apis.md that records it.
   */
  source: string[];
  /** What a reader must know: which values are illustrative, what was derived from what. */
  note?: string;
  status: number;
  body: unknown;
}

const RecordedAnswerSchema = z.object({
  source: z.array(z.string().min(1)).min(1),
  note: z.string().optional(),
  status: z.number().int().min(100).max(599),
  body: z.unknown(),
}).strict();

/** Reads tests/fixtures/<vendor>/<name>.json; a fixture without a source is refused. */
export function readRecordedAnswer(vendor: Vendor, name: string): RecordedAnswer {
  const url = new URL(`../fixtures/${vendor}/${name}.json`, import.meta.url);
  return RecordedAnswerSchema.parse(JSON.parse(Deno.readTextFileSync(url)));
}

/** What the recorded-answer server saw of one request. */
export interface SeenRequest {
  method: string;
  pathname: string;
  body: string;
}

/** A local server answering every request with `answer`, and the requests it received. */
export function serveRecordedAnswer(
  answer: RecordedAnswer,
): SimulatorServer & { requests: SeenRequest[] } {
  const requests: SeenRequest[] = [];
  const server = startSimulatorServer(async (request) => {
    const { pathname } = new URL(request.url);
    requests.push({ method: request.method, pathname, body: await request.text() });
    return Response.json(answer.body, { status: answer.status });
  });
  return { ...server, requests };
}

/**
 * Runs `test` against a server answering each path in `byPath` ("/elitedias_games_available") with
 * its named fixture, and every other path with a 404 `{code, message}` (illustrative: the answer of
 * a route the vendor does not have), then stops the server.
 */
export async function withRecordedAnswersByPath(
  vendor: Vendor,
  byPath: Record<string, string>,
  test: (server: { url: string; requests: SeenRequest[] }) => Promise<void>,
): Promise<void> {
  const answers = new Map(
    Object.entries(byPath).map(([path, name]) => [path, readRecordedAnswer(vendor, name)]),
  );
  const requests: SeenRequest[] = [];
  const server = startSimulatorServer(async (request) => {
    const { pathname } = new URL(request.url);
    requests.push({ method: request.method, pathname, body: await request.text() });
    const answer = answers.get(pathname);
    return answer === undefined
      ? Response.json({ code: "404", message: "Not found" }, { status: 404 })
      : Response.json(answer.body, { status: answer.status });
  });
  try {
    await test({ url: server.url, requests });
  } finally {
    await server.close();
  }
}

/** Runs `test` against a server answering with the named fixture, and stops the server after. */
export async function withRecordedAnswer(
  vendor: Vendor,
  name: string,
  test: (server: { url: string; requests: SeenRequest[] }) => Promise<void>,
): Promise<void> {
  const server = serveRecordedAnswer(readRecordedAnswer(vendor, name));
  try {
    await test(server);
  } finally {
    await server.close();
  }
}
