import assert from "node:assert/strict";
import { addressKey } from "../../src/domain/auth/rate-limit.ts";

Deno.test("[rate limits] an IPv6 client counts per /64, an IPv4 one per address", () => {
  const cases: [string, string][] = [
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:aaaa::1", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::1]", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["203.0.113.7", "203.0.113.7"],
  ];
  for (const [address, key] of cases) assert.equal(addressKey(address), key, address);
  assert.notEqual(addressKey("2001:db8:1:2::1"), addressKey("2001:db8:1:3::1"));
});
