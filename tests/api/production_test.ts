// Production mode refuses to be unsafe (issue 20): an unsafe environment stops `serve` with a line
// naming each problem.
import assert from "node:assert/strict";
import { productionEnv, unreachableServices } from "../helpers/production.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[production] an unsafe setting stops `serve` with a line naming it, exit 1",
  ...opts,
  async fn() {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/main.ts", "serve", "--no-build"],
      env: {
        ...productionEnv(unreachableServices()),
        PORT: "0",
        HITPAY_MODE: "simulator",
        PUBLIC_URL: "http://shop.example.com",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 1, err);
    assert.doesNotMatch(new TextDecoder().decode(stdout), /Serving on/);
    assert.match(err, /^Error: Invalid configuration:$/m);
    assert.match(err, /^ {2}HITPAY_MODE: simulator is not allowed when APP_MODE is production/m);
    assert.match(err, /^ {2}PUBLIC_URL: must start with https:\/\/ when APP_MODE is production/m);
  },
});
