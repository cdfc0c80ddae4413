import assert from "node:assert/strict";
import type { AstroCookies } from "astro";
import { setSessionCookie } from "../../src/server/http.ts";

/** Whether setSessionCookie marks the cookie Secure for a request to `url` under `config`. */
function secureFor(url: string, config: { mode: "demo" | "production"; publicUrl?: string }) {
  let secure: boolean | undefined;
  const cookies = {
    set: (_name: string, _value: string, options: { secure?: boolean }) => secure = options.secure,
  } as unknown as AstroCookies;
  setSessionCookie(cookies, "token", { url: new URL(url), config });
  return secure;
}

Deno.test("[session cookie] Secure in production even over the proxy's plain http", () => {
  assert.equal(secureFor("http://10.0.0.5:8000/api/login_admin", { mode: "production" }), true);
  assert.equal(
    secureFor("http://10.0.0.5:8000/api/login_admin", {
      mode: "production",
      publicUrl: "https://shop.example.com",
    }),
    true,
  );
});

Deno.test("[session cookie] the demo is Secure only over https or behind an https PUBLIC_URL", () => {
  assert.equal(secureFor("http://127.0.0.1:8000/api/login_admin", { mode: "demo" }), false);
  assert.equal(secureFor("https://127.0.0.1:8000/api/login_admin", { mode: "demo" }), true);
  assert.equal(
    secureFor("http://127.0.0.1:8000/api/login_admin", {
      mode: "demo",
      publicUrl: "https://demo.example.com",
    }),
    true,
  );
});
