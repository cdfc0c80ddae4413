import assert from "node:assert/strict";
import {
  businessWallClock,
  DATE_FORMAT,
  formatBusinessDate,
} from "../../src/shared/business-time.ts";

Deno.test("[business time] dates show in Singapore time in spec §9's format", () => {
  assert.equal(formatBusinessDate("2025-01-05T07:04:00Z"), "5 Jan 2025, 3:04 pm");
  // A UTC evening is the next Singapore morning; midnight and noon read as 12.
  assert.equal(formatBusinessDate(new Date("2025-01-04T20:00:00Z")), "5 Jan 2025, 4:00 am");
  assert.equal(formatBusinessDate("2025-12-31T16:00:00Z"), "1 Jan 2026, 12:00 am");
  assert.equal(formatBusinessDate("2025-06-30T04:30:00Z"), "30 Jun 2025, 12:30 pm");
  assert.equal(formatBusinessDate("2025-01-04T20:00:00Z", "yyyy-MM-dd"), "2025-01-05");
  assert.equal(DATE_FORMAT, "d MMM yyyy, h:mm aaa");
});

Deno.test("[business time] a spreadsheet's wall clock carries Singapore's fields as UTC", () => {
  assert.equal(
    businessWallClock("2025-01-04T20:00:00Z").toISOString(),
    "2025-01-05T04:00:00.000Z",
  );
});

Deno.test("[business time] the viewer's own zone changes nothing, daylight saving included", async () => {
  // 2 am on 8 Mar 2026 does not exist in New York (clocks jump to 3 am); in Singapore it does.
  const script = `
    import { formatBusinessDate } from "${new URL(
    "../../src/shared/business-time.ts",
    import.meta.url,
  )}";
    console.log(formatBusinessDate("2026-03-07T18:30:00Z"));
    console.log(formatBusinessDate("2025-01-05T07:04:00Z"));
  `;
  for (const zone of ["America/New_York", "Pacific/Kiritimati", "UTC"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-check", script],
      env: { TZ: zone },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(out.success, zone);
    assert.deepEqual(
      new TextDecoder().decode(out.stdout).trim().split("\n"),
      ["8 Mar 2026, 2:30 am", "5 Jan 2025, 3:04 pm"],
      zone,
    );
  }
});
