import assert from "node:assert/strict";
import { parseRetryAfter } from "../../src/integrations/fetch-json.ts";
import { ASKED_RETRY_BOUNDS_MS, backoffSeconds, retryTimeOf } from "../../src/domain/jobs.ts";

const NOW = Date.parse("2026-01-05T10:00:00Z");

Deno.test("[retry-after] delay-seconds and an HTTP-date are read, anything else is not", () => {
  assert.equal(parseRetryAfter("120", NOW), 120_000);
  assert.equal(parseRetryAfter(" 0 ", NOW), 0);
  assert.equal(parseRetryAfter("Mon, 05 Jan 2026 10:00:30 GMT", NOW), 30_000);
  assert.equal(parseRetryAfter("Mon, 05 Jan 2026 09:00:00 GMT", NOW), 0, "a past date: now");
  assert.equal(parseRetryAfter(null, NOW), undefined);
  assert.equal(parseRetryAfter("soon", NOW), undefined);
  assert.equal(parseRetryAfter("-5", NOW), undefined);
});

Deno.test("[jobs] a job that asks for a time runs then, kept between one second and ten minutes", () => {
  const at = (ms: number) => new Date(NOW + ms);
  assert.deepEqual(retryTimeOf(3, at(30_000), NOW), at(30_000));
  assert.deepEqual(retryTimeOf(3, at(0), NOW), at(ASKED_RETRY_BOUNDS_MS.min));
  assert.deepEqual(retryTimeOf(3, at(86_400_000), NOW), at(ASKED_RETRY_BOUNDS_MS.max));
  assert.deepEqual(retryTimeOf(3, undefined, NOW), at(backoffSeconds(3) * 1000));
});
