import assert from "node:assert/strict";
import { examineSetup } from "../../src/domain/admin/doctor.ts";
import {
  productionEnv,
  startLiveServiceSimulators,
  unreachableServices,
} from "../helpers/production.ts";

const SERVICES = ["MooGold", "EliteDias", "HitPay", "Yahoo Finance"];

Deno.test("[doctor] the demo shows every outside service as simulated", async () => {
  const report = await examineSetup({}, { live: false });
  assert.ok(report.ok, report.lines.join("\n"));
  const text = report.lines.join("\n");
  assert.match(text, /^Configuration \(demo mode\): no problems$/m);
  for (const service of SERVICES) {
    assert.match(text, new RegExp(`^  ${service}: simulated$`, "m"));
  }
});

Deno.test("[doctor] --live without a network names each live service unreachable", async () => {
  const report = await examineSetup(
    { ...productionEnv(unreachableServices()), SUPPLIER_TIMEOUT_MS: "1000" },
    { live: true },
  );
  assert.equal(report.ok, false);
  const text = report.lines.join("\n");
  assert.match(text, /^Configuration \(production mode\): no problems$/m);
  for (const service of ["MooGold", "HitPay", "Yahoo Finance"]) {
    assert.match(
      text,
      new RegExp(
        `^  ${service}: FAILED, unreachable: .*cannot reach 127\\.0\\.0\\.1:\\d+: .*refused`,
        "m",
      ),
    );
  }
  // Without a resolver the lookup may hang instead of failing: a timeout is as clear.
  assert.match(
    text,
    /^ {2}EliteDias: FAILED, (unreachable: cannot reach elitedias\.topup-test\.invalid: .*(dns|lookup)|timed out: no answer from elitedias\.topup-test\.invalid)/m,
  );
});

Deno.test("[doctor] --live reads each balance, the rate and HitPay's verdict on the key", async () => {
  const live = startLiveServiceSimulators();
  try {
    const env = productionEnv(live.services);
    const report = await examineSetup(env, { live: true });
    assert.ok(report.ok, report.lines.join("\n"));
    const text = report.lines.join("\n");
    assert.match(
      text,
      /^ {2}MooGold: OK, balance 1000\.00 USD \(signature accepted\); orders signed with partnerOrderId \(only an order can confirm it; a 109 refusal is re-signed once the other way\)$/m,
    );
    // EliteDias names no currency: the port gives the one its account is funded in.
    assert.match(text, /^ {2}EliteDias: OK, balance \d+(\.\d+)? SGD$/m);
    assert.match(text, /^ {2}HitPay: OK, the API key was accepted/m);
    assert.match(text, /^ {2}Yahoo Finance: OK, USD→SGD rate 1\.\d+$/m);
    assert.equal(live.hitpay.listRequests().length, 0, "nothing was created at HitPay");

    const wrong = await examineSetup(
      {
        ...env,
        HITPAY_API_KEY: "hp-key-mistyped",
        MOOGOLD_SECRET_KEY: "mg-secret-mistyped",
        ELITEDIAS_API_KEY: "ed-key-mistyped",
      },
      { live: true },
    );
    assert.equal(wrong.ok, false);
    const wrongText = wrong.lines.join("\n");
    assert.match(
      wrongText,
      /^ {2}HitPay: FAILED, bad API key: .*Invalid business api key \(HTTP 403\)$/m,
    );
    assert.match(wrongText, /^ {2}MooGold: FAILED, refused: API not authorised \(error 422\)$/m);
    assert.match(wrongText, /^ {2}EliteDias: FAILED, refused: Invalid API key \(error 401\)$/m);
    assert.match(wrongText, /^ {2}Yahoo Finance: OK, /m);
  } finally {
    await live.close();
  }
});

Deno.test("[doctor] a configuration problem is printed on its own line and skips the live calls", async () => {
  const report = await examineSetup(
    { ...productionEnv(unreachableServices()), FX_MODE: "simulator", PUBLIC_URL: undefined },
    { live: true },
  );
  assert.equal(report.ok, false);
  assert.deepEqual(report.lines, [
    "Configuration (production mode): 2 problem(s); the server would not start",
    "  FX_MODE: simulator is not allowed when APP_MODE is production (set live)",
    "  PUBLIC_URL: required when APP_MODE is production (the https:// address customers use)",
    "Live checks skipped: fix the configuration first.",
  ]);
});
