/**
 * The benches' load generator: one kept-alive HTTP/1.1 connection per client that writes a
 * request's bytes and reads the answer's status and body, and nothing else (no Request, Response
 * or Headers objects, no cookie jar). The load generator shares the machine's cores with the
 * server it measures, as pgbench does with PostgreSQL; with `fetch` it took 0.5 to 0.9 ms of CPU
 * per order placed, a tenth of the machine's CPU per order, which this spares the server.
 *
 * It speaks enough HTTP/1.1 for our server's answers: a body by Content-Length or chunked, and a
 * connection the server closes (reopened for the next request). One request at a time.
 */
export interface LeanAnswer {
  status: number;
  body: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CR = 13;
const LF = 10;

export class LeanClient {
  #conn?: Deno.TcpConn;
  #buffer = new Uint8Array(64 * 1024);
  /** Bytes of #buffer read but not yet consumed: [#start, #end). */
  #start = 0;
  #end = 0;
  #closeAfter = false;
  readonly #hostname: string;
  readonly #port: number;
  readonly #host: string;

  /** `headers` go with every request (a session's cookie, say). */
  constructor(base: string, readonly headers: Record<string, string> = {}) {
    const url = new URL(base);
    this.#hostname = url.hostname;
    this.#port = Number(url.port || 80);
    this.#host = url.host;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<LeanAnswer> {
    return this.request("GET", path, undefined, headers);
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<LeanAnswer> {
    return this.request("POST", path, JSON.stringify(body), {
      "content-type": "application/json",
      ...headers,
    });
  }

  async request(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<LeanAnswer> {
    const payload = body === undefined ? undefined : encoder.encode(body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.#host}\r\n`;
    for (const [name, value] of Object.entries({ ...this.headers, ...headers })) {
      head += `${name}: ${value}\r\n`;
    }
    if (payload) head += `content-length: ${payload.length}\r\n`;
    const headBytes = encoder.encode(head + "\r\n");
    const message = payload ? concat(headBytes, payload) : headBytes;
    if (!this.#conn) await this.#open();
    try {
      await writeAll(this.#conn!, message);
      const answer = await this.#readAnswer();
      if (this.#closeAfter) this.close();
      return answer;
    } catch (error) {
      // A connection that failed mid-answer is not reused: the next request opens another.
      this.close();
      throw error;
    }
  }

  close(): void {
    try {
      this.#conn?.close();
    } catch {
      // already closed
    }
    this.#conn = undefined;
    this.#start = this.#end = 0;
    this.#closeAfter = false;
  }

  async #open(): Promise<void> {
    this.#conn = await Deno.connect({ hostname: this.#hostname, port: this.#port });
    this.#conn.setNoDelay(true);
  }

  /** Reads more bytes into the buffer (growing it when full); throws when the server closed. */
  async #fill(): Promise<void> {
    if (this.#start > 0 && this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buffer.length) {
      const bigger = new Uint8Array(this.#buffer.length * 2);
      bigger.set(this.#buffer.subarray(this.#start, this.#end));
      this.#end -= this.#start;
      this.#start = 0;
      this.#buffer = bigger;
    }
    const n = await this.#conn!.read(this.#buffer.subarray(this.#end));
    if (n === null) throw new Error("connection closed by the server");
    this.#end += n;
  }

  /** The line at #start and the index just past its CRLF, reading more as needed. */
  async #line(): Promise<{ text: string; next: number }> {
    // Counted from #start: #fill may move the unread bytes to the buffer's beginning.
    let scanned = 0;
    for (;;) {
      for (let i = this.#start + scanned; i + 1 < this.#end; i++) {
        if (this.#buffer[i] === CR && this.#buffer[i + 1] === LF) {
          return { text: decoder.decode(this.#buffer.subarray(this.#start, i)), next: i + 2 };
        }
      }
      scanned = Math.max(0, this.#end - this.#start - 1);
      await this.#fill();
    }
  }

  async #take(length: number): Promise<Uint8Array> {
    while (this.#end - this.#start < length) await this.#fill();
    const bytes = this.#buffer.slice(this.#start, this.#start + length);
    this.#start += length;
    return bytes;
  }

  async #readAnswer(): Promise<LeanAnswer> {
    const statusLine = await this.#line();
    this.#start = statusLine.next;
    const status = Number(statusLine.text.split(" ")[1]);
    let length = -1;
    let chunked = false;
    for (;;) {
      const line = await this.#line();
      this.#start = line.next;
      if (line.text === "") break;
      const colon = line.text.indexOf(":");
      const name = line.text.slice(0, colon).toLowerCase();
      const value = line.text.slice(colon + 1).trim().toLowerCase();
      if (name === "content-length") length = Number(value);
      else if (name === "transfer-encoding") chunked = value.includes("chunked");
      else if (name === "connection") this.#closeAfter = value === "close";
    }
    if (!chunked) return { status, body: await this.#take(Math.max(length, 0)) };
    const parts: Uint8Array[] = [];
    for (;;) {
      const size = await this.#line();
      this.#start = size.next;
      const n = parseInt(size.text, 16);
      if (n === 0) {
        // The last chunk, then trailers (none from our server) and an empty line.
        for (;;) {
          const trailer = await this.#line();
          this.#start = trailer.next;
          if (trailer.text === "") break;
        }
        break;
      }
      parts.push(await this.#take(n));
      const end = await this.#line();
      this.#start = end.next;
    }
    return { status, body: parts.length === 1 ? parts[0] : concat(...parts) };
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

async function writeAll(conn: Deno.TcpConn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** The answer's body as text. */
export function textOf(answer: LeanAnswer): string {
  return decoder.decode(answer.body);
}
