// The shop's Terms, Privacy and Refund policies and company details: admins alone read and write
// them (GET/PUT /api/settings/store-policies, zod-checked), buyers read them at /consumers/{slug}
// and in every consumer page's footer, the cached pages included; the demo shows placeholders
// that say so. Every consumer page's title is "<Page> | TopUp".
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PATH = "/api/settings/store-policies";

const POLICIES = {
  terms: "## Who we are\nWe sell top-ups.\n\n<script>alert('terms')</script> stays text.",
  privacy: "",
  refunds: "Refunds within 7 days of an undelivered order.",
  company: {
    name: "Gem Shop Pte. Ltd.",
    registrationNumber: "202400001K",
    address: "1 Example Road, Singapore 000001",
    email: "help@gemshop.test",
  },
};

const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "";

/** The footer's policy links on a page, as [text, href]. */
function footerLinks(html: string): [string, string][] {
  const nav = html.match(/<nav aria-label="Store policies">([\s\S]*?)<\/nav>/)?.[1] ?? "";
  return [...nav.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[2], m[1]]);
}

Deno.test({
  name: "[store policies] admins alone keep them; buyers read them in the footer and their pages",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const admin = await signInDemoAdmin(server.url);
      const reseller = await signInDemoReseller(server.url);
      const anonymous = new TestClient(server.url);
      const buyer = new TestClient(server.url);

      await t.step("signed out: 401; a reseller: 403; nothing is saved", async () => {
        for (const method of ["GET", "PUT"]) {
          const body = method === "PUT" ? POLICIES : undefined;
          assert.equal((await anonymous.request(method, PATH, body)).status, 401, method);
          assert.equal((await reseller.request(method, PATH, body)).status, 403, method);
        }
        const r = await admin.get(PATH);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.json, {
          terms: "",
          privacy: "",
          refunds: "",
          company: { name: "", registrationNumber: "", address: "", email: "" },
        });
      });

      await t.step("the demo's footer links three placeholder pages that say so", async () => {
        const landing = (await buyer.get("/consumers")).text;
        assert.deepEqual(footerLinks(landing), [
          ["Terms of Service", "/consumers/terms"],
          ["Privacy Policy", "/consumers/privacy"],
          ["Refund Policy", "/consumers/refunds"],
        ]);
        assert.ok(landing.includes("TopUp Demo (placeholder company)"), "placeholder company");
        for (const slug of ["terms", "privacy", "refunds"]) {
          const page = await buyer.get(`/consumers/${slug}`);
          assert.equal(page.status, 200, slug);
          assert.match(page.text, /Demo placeholder: this shop runs in demo mode/);
        }
      });

      await t.step("bad input is a 400 that names the field, and nothing changes", async () => {
        const bad = [
          { ...POLICIES, terms: 42 },
          { ...POLICIES, company: { ...POLICIES.company, email: "not an email" } },
          { ...POLICIES, refunds: "x".repeat(30_001) },
          { terms: "only one field" },
          "[]",
        ];
        for (const body of bad) {
          const r = await admin.request("PUT", PATH, body);
          assert.equal(r.status, 400, r.text);
          assert.ok(r.json.error, r.text);
        }
        const email = await admin.request("PUT", PATH, {
          ...POLICIES,
          company: { ...POLICIES.company, email: "nope" },
        });
        assert.match(email.text, /Contact email must be a valid email address/);
        assert.equal((await admin.get(PATH)).json.terms, "");
      });

      await t.step(
        "an admin's text replaces the placeholder; the cached pages show it",
        async () => {
          const saved = await admin.request("PUT", PATH, POLICIES);
          assert.equal(saved.status, 200, saved.text);
          assert.deepEqual(saved.json, POLICIES);
          assert.deepEqual((await admin.get(PATH)).json, POLICIES);

          const terms = await buyer.get("/consumers/terms");
          assert.equal(terms.status, 200);
          assert.equal(titleOf(terms.text), "Terms of Service | TopUp");
          assert.match(terms.text, /<h2[^>]*>Who we are<\/h2>/);
          assert.match(terms.text, /We sell top-ups\./);
          assert.ok(!terms.text.includes("<script>alert"), "an admin's markup is text, never HTML");
          assert.ok(terms.text.includes("&lt;script&gt;alert("), "shown escaped");
          assert.ok(!terms.text.includes("Demo placeholder"), "no placeholder once written");

          for (const path of ["/consumers", "/consumers/mobile-legends", "/consumers/terms"]) {
            const html = (await buyer.get(path)).text;
            for (const part of Object.values(POLICIES.company)) {
              assert.ok(html.includes(part), `${path}: ${part}`);
            }
            assert.ok(html.includes('href="mailto:help@gemshop.test"'), path);
          }
          // The demo still fills what the admin left empty, and marks it.
          assert.match((await buyer.get("/consumers/privacy")).text, /Demo placeholder/);
        },
      );

      await t.step("every consumer page's title is '<Page> | TopUp'", async () => {
        for (
          const [path, title] of [
            ["/consumers", "Top up your games | TopUp"],
            ["/consumers/mobile-legends", "Mobile Legends top-up | TopUp"],
            ["/consumers/order", "Find your order | TopUp"],
            ["/payment/success", "Your order | TopUp"],
            ["/consumers/refunds", "Refund Policy | TopUp"],
          ]
        ) assert.equal(titleOf((await buyer.get(path)).text), title, path);
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
