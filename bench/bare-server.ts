// The ceiling of the HTTP benches: a bare Deno HTTP server answering BARE_BODY with
// BARE_CONTENT_TYPE to every request. Prints its port once it listens.
const body = new TextEncoder().encode(Deno.env.get("BARE_BODY") ?? "");
const contentType = Deno.env.get("BARE_CONTENT_TYPE") ?? "application/json";
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(port),
}, () => new Response(body, { headers: { "content-type": contentType } }));
