// A reseller's webhook receiver, for trying webhooks locally (README "Reseller webhooks"):
//   WEBHOOK_SECRET=whsec_... deno run --allow-net --allow-env examples/webhook-receiver.ts [port]
// It checks each delivery's signature, answers 400 to a bad one, and handles each event id once
// (a retry or a Resend of an event it has seen is answered 200 and dropped).
import { verifyWebhookSignature } from "../src/shared/webhook-signature.ts";

const secret = Deno.env.get("WEBHOOK_SECRET");
if (!secret) throw new Error("set WEBHOOK_SECRET to the secret shown on My Account");
const seen = new Set<string>();

Deno.serve({ port: Number(Deno.args[0] ?? 8787), hostname: "127.0.0.1" }, async (request) => {
  const raw = await request.text(); // the exact bytes: verify before parsing
  const header = request.headers.get("X-TopUp-Signature");
  if (!await verifyWebhookSignature(secret, header, raw, 300)) {
    console.log("rejected: bad signature");
    return new Response("bad signature", { status: 400 });
  }
  const event = JSON.parse(raw);
  if (seen.has(event.id)) {
    console.log(`repeat of ${event.id} dropped`);
    return new Response("ok");
  }
  seen.add(event.id);
  const order = event.data.order;
  console.log(`verified ${event.type} ${event.id}: order ${order.id} is ${order.status}`);
  return new Response("ok");
});
