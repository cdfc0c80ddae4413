import assert from "node:assert/strict";
import { checkWebhookUrl } from "../../src/domain/resellers/webhooks.ts";
import { ValidationError } from "../../src/domain/errors.ts";
import { signWebhook, verifyWebhookSignature } from "../../src/shared/webhook-signature.ts";

Deno.test("[webhooks] production takes only https URLs on public hosts; the demo takes local http", () => {
  assert.equal(
    checkWebhookUrl(" https://shop.example/hooks?x=1 ", "production"),
    "https://shop.example/hooks?x=1",
  );
  const refused: [string, string][] = [
    ["http://shop.example/hooks", "The callback URL must use https"],
    ["https://localhost/hooks", "The callback URL must be on a public host"],
    ["https://127.0.0.1:8443/", "The callback URL must be on a public host"],
    ["https://10.1.2.3/", "The callback URL must be on a public host"],
    ["https://172.20.0.1/", "The callback URL must be on a public host"],
    ["https://192.168.1.10/", "The callback URL must be on a public host"],
    ["https://169.254.169.254/latest", "The callback URL must be on a public host"],
    ["https://[::1]/", "The callback URL must be on a public host"],
    ["https://printer.local/", "The callback URL must be on a public host"],
    ["https://user:pw@shop.example/", "The callback URL must not carry a user name or password"],
    ["shop.example/hooks", "Enter a full URL, such as https://shop.example/hooks/topup"],
  ];
  for (const [url, message] of refused) {
    assert.throws(() => checkWebhookUrl(url, "production"), new ValidationError(message), url);
  }
  assert.equal(checkWebhookUrl("https://172.32.0.1/", "production"), "https://172.32.0.1/");
  assert.equal(checkWebhookUrl("http://127.0.0.1:8787/h", "demo"), "http://127.0.0.1:8787/h");
  assert.throws(
    () => checkWebhookUrl("file:///etc/passwd", "demo"),
    new ValidationError("The callback URL must use https or http"),
  );
});

Deno.test("[webhooks] production refuses the review's special-purpose hosts; the demo only loopback", () => {
  const refused = [
    "https://localhost./",
    "https://LOCALHOST../hooks",
    "https://hooks.localhost/",
    "https://100.100.100.200/latest/meta-data",
    "https://100.64.0.1/",
    "https://0.0.0.1/",
    "https://0/",
    "https://198.18.0.1/",
    "https://0x7f.1/",
    "https://2130706433/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/",
    "https://[64:ff9b::a9fe:a9fe]/",
    "https://[fd00:ec2::254]/",
    "https://[fe80::1]/",
    "https://224.0.0.1/",
    "https://255.255.255.255/",
    "https://metadata/computeMetadata/v1/",
    "https://metadata.google.internal/",
    "https://router.home.arpa/",
    "https://printer.local./",
  ];
  for (const url of refused) {
    assert.throws(
      () => checkWebhookUrl(url, "production"),
      new ValidationError("The callback URL must be on a public host"),
      url,
    );
  }
  assert.equal(
    checkWebhookUrl("https://[2606:4700::1111]/h", "production"),
    "https://[2606:4700::1111]/h",
  );
  assert.equal(
    checkWebhookUrl("https://hooks.shop.example./h", "production"),
    "https://hooks.shop.example./h",
  );
  assert.equal(checkWebhookUrl("http://localhost:8787/h", "demo"), "http://localhost:8787/h");
  assert.equal(checkWebhookUrl("http://[::1]:8787/h", "demo"), "http://[::1]:8787/h");
  for (const url of ["http://169.254.169.254/", "http://10.0.0.2/", "http://[::ffff:7f00:1]/"]) {
    assert.throws(
      () => checkWebhookUrl(url, "demo"),
      new ValidationError("The callback URL must be on a public host"),
      url,
    );
  }
});

Deno.test("[webhooks] a signature verifies only with its secret, body and time", async () => {
  const body = '{"id":"e1","type":"order.successful"}';
  const t = 1_790_000_000;
  const header = await signWebhook("whsec_one", body, t);
  assert.match(header, /^t=1790000000,v1=[0-9a-f]{64}$/);
  assert.equal(await verifyWebhookSignature("whsec_one", header, body, 300, t + 300), true);
  assert.equal(await verifyWebhookSignature("whsec_two", header, body, 300, t), false);
  assert.equal(await verifyWebhookSignature("whsec_one", header, `${body} `, 300, t), false);
  assert.equal(await verifyWebhookSignature("whsec_one", header, body, 300, t + 301), false);
  assert.equal(await verifyWebhookSignature("whsec_one", header, body, 300, t - 301), false);
  const v1 = header.split("v1=")[1];
  // A header may carry several v1 values (one per secret while a receiver changes secrets).
  assert.equal(
    await verifyWebhookSignature("whsec_one", `t=${t},v1=${"0".repeat(64)},v1=${v1}`, body, 300, t),
    true,
  );
  for (const bad of [null, "", `v1=${v1}`, `t=${t}`, `t=x,v1=${v1}`, `t=${t},v1=zz`]) {
    assert.equal(await verifyWebhookSignature("whsec_one", bad, body, 300, t), false, String(bad));
  }
});
