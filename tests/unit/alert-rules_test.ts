// deploy/prometheus/alerts.yml is valid for Prometheus, and each of its rules fires in one case of
// alerts_test.yml and stays quiet in another, as Prometheus's own promtool evaluates them. CI
// installs promtool (Debian's `prometheus` package); elsewhere the test is skipped, saying why.
import assert from "node:assert/strict";

const RULES = "deploy/prometheus/alerts.yml";
const RULE_TESTS = "deploy/prometheus/alerts_test.yml";

function hasPromtool(): boolean {
  try {
    new Deno.Command("promtool", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync();
    return true;
  } catch {
    return false;
  }
}

const present = hasPromtool();
// CI runs every suite: there a missing promtool fails rather than skips.
const skip = !present && !Deno.env.get("CI");

async function promtool(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command("promtool", { args }).output();
  const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert.equal(code, 0, `promtool ${args.join(" ")}:\n${out}`);
  return out;
}

Deno.test({
  name: `[alerts] promtool check rules and promtool test rules pass${
    skip ? " (skipped: promtool is not installed; apt-get install prometheus)" : ""
  }`,
  ignore: skip,
  async fn() {
    assert.ok(present, "promtool is installed (apt-get install prometheus)");
    assert.match(await promtool("check", "rules", RULES), /SUCCESS: \d+ rules found/);
    assert.match(await promtool("test", "rules", RULE_TESTS), /SUCCESS/);
  },
});

Deno.test("[alerts] every rule has a case that fires it and one that does not", async () => {
  const rules = [...(await Deno.readTextFile(RULES)).matchAll(/^\s*- alert: (\w+)$/gm)]
    .map((m) => m[1]);
  assert.ok(rules.length >= 9, `rules found: ${rules}`);
  const cases = [
    ...(await Deno.readTextFile(RULE_TESTS)).matchAll(
      /alertname: (\w+)\n\s*exp_alerts:( \[\])?/g,
    ),
  ].map((m) => ({ alert: m[1], fires: m[2] === undefined }));
  for (const rule of rules) {
    assert.ok(cases.some((c) => c.alert === rule && c.fires), `${rule} has a firing case`);
    assert.ok(cases.some((c) => c.alert === rule && !c.fires), `${rule} has a quiet case`);
  }
  assert.deepEqual(cases.filter((c) => !rules.includes(c.alert)), [], "no case of a lost rule");
});
