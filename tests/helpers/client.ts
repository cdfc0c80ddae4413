// Tests read response bodies loosely, as the browser does.
// deno-lint-ignore no-explicit-any
type Json = any;

/** A small HTTP client with a cookie jar, like one browser tab. */
export class TestClient {
  cookies = new Map<string, string>();
  /** When set, requests go to these servers in turn (one browser tab across instances). */
  alternate: string[] = [];
  #turn = 0;
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const h: Record<string, string> = { ...this.headers, ...headers };
    if (this.cookies.size) {
      h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      h["content-type"] ??= "application/json";
    }
    const base = this.alternate.length
      ? this.alternate[this.#turn++ % this.alternate.length]
      : this.base;
    const response = await fetch(new URL(path, base), {
      method,
      headers: h,
      body: payload,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      const expired = attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "" || value === "deleted") {
        this.cookies.delete(name.trim());
      } else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: json as Json,
    };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request("POST", path, body ?? {}, headers);
  }
}
