import { type Browser, chromium, type Page } from "playwright-core";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";
import { DEMO_ADMIN, DEMO_RESELLER } from "../../src/domain/auth/bootstrap.ts";
import { V1_OPERATIONS } from "../../src/server/reseller-api-operations.ts";

/** Launches Debian's Chromium headless with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Waits until every island on the page has hydrated (Astro drops the `ssr` attribute then). */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector("astro-island[ssr]"));
}

/** Opens a page and waits for its islands, so clicks reach the handlers. */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForIslands(page);
}

/** Signs the demo reseller in (no two-factor in the demo); ends on /resellers/home, hydrated. */
export async function signInDemoResellerInBrowser(page: Page, baseUrl: string): Promise<void> {
  await gotoHydrated(page, `${baseUrl}/resellers`);
  await page.getByLabel("Email").fill(DEMO_RESELLER.email);
  await page.getByLabel("Password").fill(DEMO_RESELLER.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL("**/resellers/home");
  await waitForIslands(page);
}

/** Signs the demo admin in through QR enrolment and a code; ends on /admin/home, hydrated. */
export async function signInDemoAdminInBrowser(page: Page, baseUrl: string): Promise<string> {
  await gotoHydrated(page, `${baseUrl}/admin`);
  await page.getByLabel("Email").fill(DEMO_ADMIN.email);
  await page.getByLabel("Password").fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL("**/2fa");
  await waitForIslands(page);
  const secret = (await page.getByLabel("Secret key").innerText()).trim();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByLabel("Verification code").fill(generateTotpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL("**/admin/home");
  await waitForIslands(page);
  return secret;
}

/**
 * Opens each operation of the API reference (/resellers/api) from its sidebar, which shows at
 * 1280 px: Scalar renders a section only once it comes near the screen, and a test or a scan needs
 * every one of them in the page.
 */
export async function openEveryApiOperation(page: Page): Promise<void> {
  const sidebar = page.getByRole("complementary", { name: "Sidebar for Reseller API" });
  for (const op of V1_OPERATIONS) {
    await sidebar.getByRole("link", { name: op.summary }).click();
    await page.getByRole("heading", { name: op.summary, exact: true }).first().waitFor();
  }
}

/** Saves a full-page screenshot as NAME.png in SCREENSHOT_DIR, when that is set. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("SCREENSHOT_DIR");
  if (!dir) return;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** How far the page itself scrolls sideways (0: nothing sticks out of the window). */
export async function pageOverflow(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}
