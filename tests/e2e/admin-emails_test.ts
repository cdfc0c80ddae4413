// Spec §2 Emails in a real browser: hostile messages open in the detail panel and nothing in
// them runs or calls out; a customer's message is read and replied to (delivered to a real SMTP
// server in its thread); search, delete, the load failure banner; screenshots at 375 and 1280 px.
import assert from "node:assert/strict";
import { simpleParser } from "mailparser";
import type { BrowserContext, Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { gotoHydrated, launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import { startTestSmtp } from "../helpers/smtp.ts";
import { HOSTILE_EMAILS, HOSTILE_HOST } from "../helpers/hostile-emails.ts";
import { EMAIL_FRAME_SANDBOX, emailFrameDocument } from "../../src/shared/email-frame.ts";

const SECRET = "inbound-secret-for-the-browser-test-42";
const SCREENS = "/work/notes/screens-8c";

/**
 * Counts what a hostile script would do, in every page of the context: messages posted to the
 * page, dialogs, requests to anything but the app.
 */
async function watch(context: BrowserContext) {
  const seen = {
    messages: [] as string[],
    dialogs: [] as string[],
    /** Requests that reached the network layer for a host other than the app's. */
    outside: [] as string[],
    /** Loads of the hostile host the page even tried (a CSP-blocked one is listed here only). */
    attempted: [] as string[],
  };
  await context.exposeBinding("__reportMessage", (_source, data) => {
    seen.messages.push(String(data));
  });
  await context.addInitScript(() => {
    addEventListener("message", (e) => {
      (globalThis as unknown as { __reportMessage(d: string): void }).__reportMessage(
        String(e.data),
      );
    });
  });
  context.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    dialog.dismiss();
  });
  // Anything not to the app (or data:) is recorded and stopped, so a leak fails the test and
  // never reaches a real host.
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "data:" || url.hostname === "127.0.0.1") return route.continue();
    seen.outside.push(url.href);
    return route.abort();
  });
  context.on("request", (request) => {
    if (request.url().includes(HOSTILE_HOST)) seen.attempted.push(request.url());
  });
  return seen;
}

async function openEmails(page: Page) {
  await page.getByRole("navigation", { name: "Admin menu" })
    .getByRole("button", { name: "Emails" }).click();
  await page.getByRole("tab", { name: "Inbox" }).waitFor();
}

function row(page: Page, subject: string) {
  return page.locator("tbody tr").filter({
    has: page.getByRole("cell", { name: subject, exact: true }),
  });
}

Deno.test({
  name: "[e2e] hostile emails run nothing and call nowhere; an email is read and replied to",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await Deno.mkdir(SCREENS, { recursive: true });
    const smtp = await startTestSmtp();
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb, {
      SMTP_URL: smtp.url,
      INBOUND_MAIL_SECRET: SECRET,
    });
    const browser = await launchBrowser();
    try {
      for (const email of HOSTILE_EMAILS) {
        const r = await fetch(new URL("/api/inbound-email", server.url), {
          method: "POST",
          headers: { authorization: `Bearer ${SECRET}`, "content-type": "message/rfc822" },
          body: email.raw,
        });
        assert.equal(r.status, 201, `${email.subject}: ${await r.text()}`);
      }
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const seen = await watch(context);
      const page = await context.newPage();
      await signInDemoAdminInBrowser(page, server.url);
      await openEmails(page);

      // The demo's three customer messages and the eight hostile ones: 11, 10 on page one.
      await row(page, "Diamonds not received yet").waitFor();
      assert.equal(await page.locator("tbody tr").count(), 10);
      await page.getByRole("button", { name: "2", exact: true }).click();
      await page.locator("tbody tr").nth(1).waitFor({ state: "detached" });
      assert.equal(await page.locator("tbody tr").count(), 1);
      await page.getByRole("button", { name: "1", exact: true }).click();
      await page.locator("tbody tr").nth(9).waitFor();

      for (const email of HOSTILE_EMAILS) {
        const search = page.getByPlaceholder("Search by to, from, or subject...");
        await search.fill(email.subject);
        await row(page, email.subject).click();
        const frame = page.frameLocator("iframe[title^='Message:']");
        await frame.locator("body").waitFor();
        assert.equal(
          await page.locator("iframe").getAttribute("sandbox"),
          "allow-popups allow-popups-to-escape-sandbox",
        );
        assert.equal(await frame.locator("html").getAttribute("data-pwned"), null, email.subject);
        assert.equal(await frame.locator("script, form, input, iframe, object, embed").count(), 0);
        if (email.subject === "Script tags") {
          await page.screenshot({ path: `${SCREENS}/email-hostile-1280.png`, fullPage: true });
        }
        await page.waitForTimeout(300);
        await page.getByRole("button", { name: "Close" }).click();
      }
      // Sanitized on the server, the bodies do not even try to load anything remote.
      assert.deepEqual(seen, { messages: [], dialogs: [], outside: [], attempted: [] });

      // The frame alone (no sanitizer) still runs nothing and loads nothing remote.
      const harness = await context.newPage();
      await harness.route("http://127.0.0.1:9/harness", (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<iframe id="raw" sandbox="${EMAIL_FRAME_SANDBOX}"></iframe>`,
        }));
      await harness.goto("http://127.0.0.1:9/harness");
      for (const email of HOSTILE_EMAILS) {
        const html = String((await simpleParser(email.raw)).html);
        assert.match(html, /hostile\.test|pwned/, `${email.subject} is hostile before sanitizing`);
        await harness.locator("#raw").evaluate(
          (el, doc) => (el as HTMLIFrameElement).srcdoc = doc,
          emailFrameDocument(html),
        );
        await harness.waitForTimeout(300);
      }
      // Unsanitized, the frame's policy blocks every remote load inside the browser (the page
      // tries, nothing leaves) and its sandbox runs no script.
      assert.ok(seen.attempted.length > 0, "the unsanitized bodies try remote loads");
      seen.attempted.length = 0;
      assert.deepEqual(seen, { messages: [], dialogs: [], outside: [], attempted: [] });
      // The watch itself works: a script in the page is seen.
      await harness.evaluate(() => postMessage("probe", "*"));
      await harness.waitForTimeout(100);
      assert.deepEqual(seen.messages, ["probe"]);
      seen.messages.length = 0;
      await harness.close();

      // A customer's message: read, an empty reply refused, then a reply sent in the thread.
      await gotoHydrated(page, `${server.url}/admin/home`);
      await openEmails(page);
      await row(page, "Diamonds not received yet").click();
      const panel = page.getByRole("article", { name: "Email" });
      await panel.getByRole("heading", { name: "Diamonds not received yet" }).waitFor();
      assert.match(
        await panel.locator("dl").innerText(),
        /To\s+"TopUp Support" <support@topup\.test>/,
      );
      assert.match(await panel.locator("dl").innerText(), /From\s+"Aisyah Rahman"/);
      await page.frameLocator("iframe").getByText("User ID 12345678").waitFor();
      await panel.getByRole("button", { name: "Reply" }).click();
      await panel.getByRole("button", { name: "Send Reply" }).click();
      await panel.getByText("Reply content cannot be empty").waitFor();
      await panel.getByPlaceholder("Type your reply here...").fill(
        "Hi Aisyah, your 257 diamonds were delivered just now.",
      );
      await page.screenshot({ path: `${SCREENS}/email-reply-1280.png`, fullPage: true });
      await panel.getByRole("button", { name: "Send Reply" }).click();
      await panel.getByText("Reply sent").waitFor();
      assert.equal(smtp.received.length, 1);
      assert.equal(smtp.received[0].subject, "Re: Diamonds not received yet");
      assert.equal(smtp.received[0].inReplyTo, "<demo-inbox-1@topup.test>");
      assert.equal(
        smtp.received[0].text?.trim(),
        "Hi Aisyah, your 257 diamonds were delivered just now.",
      );
      await panel.getByRole("button", { name: "Close" }).click();
      await page.getByRole("tab", { name: "Sent" }).click();
      await row(page, "Re: Diamonds not received yet").waitFor();

      // A reply the SMTP server refuses shows its reason.
      const bounce = await fetch(new URL("/api/inbound-email", server.url), {
        method: "POST",
        headers: { authorization: `Bearer ${SECRET}` },
        body: "From: gone@refuse.test\r\nSubject: Bounce\r\nMessage-ID: <b@refuse.test>\r\n\r\nhi",
      });
      assert.equal(bounce.status, 201);
      await page.getByRole("tab", { name: "Inbox" }).click();
      await row(page, "Bounce").click();
      await page.getByRole("button", { name: "Reply" }).click();
      await page.getByPlaceholder("Type your reply here...").fill("Hello?");
      await page.getByRole("button", { name: "Send Reply" }).click();
      const failure = page.getByText(/^Failed to send reply: /);
      await failure.waitFor();
      assert.match(await failure.innerText(), /550/);
      await page.getByRole("button", { name: "Close" }).click();

      // Search with no match, then delete with the spec's confirmation.
      const search = page.getByPlaceholder("Search by to, from, or subject...");
      await search.fill("no such message anywhere");
      await page.getByText("No emails found").waitFor();
      await search.fill("Meta refresh");
      await row(page, "Meta refresh").getByRole("button", { name: "Delete" }).click();
      await page.getByText("Delete email 'Meta refresh'?").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await row(page, "Meta refresh").waitFor({ state: "detached" });

      // The load failure banner.
      await page.route("**/api/sent-emails*", (route) => route.fulfill({ status: 500 }));
      await page.getByRole("tab", { name: "Sent" }).click();
      const banner = page.getByText("Failed to load emails. Please try again later.");
      await banner.waitFor();
      // The spec's red banner, a red deep enough for its white text to read at 4.5:1.
      assert.equal(
        await banner.evaluate((el) => getComputedStyle(el).backgroundColor),
        "rgb(198, 40, 40)",
      );
      await page.unroute("**/api/sent-emails*");

      // Screens at both widths.
      await search.fill("");
      await page.getByRole("tab", { name: "Inbox" }).click();
      await row(page, "Diamonds not received yet").waitFor();
      await page.screenshot({ path: `${SCREENS}/emails-inbox-1280.png`, fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${SCREENS}/emails-inbox-375.png`, fullPage: true });
      await row(page, "Diamonds not received yet").click();
      await page.getByRole("button", { name: "Reply" }).click();
      await page.screenshot({ path: `${SCREENS}/email-detail-375.png`, fullPage: true });
      assert.deepEqual(seen, { messages: [], dialogs: [], outside: [], attempted: [] });
    } finally {
      await browser.close();
      await server.stop();
      await smtp.stop();
      await tdb.drop();
    }
  },
});
