// The webhook address classifier against the IANA special-purpose registries, entry by entry:
// the first and last address of every block are refused, and the addresses just outside it are
// public unless another block (or, for IPv6, the space outside 2000::/3) holds them. The tables
// here are typed from the registries themselves, not taken from the module under test.
import assert from "node:assert/strict";
import { isLoopback, parseIp, specialRangeOf } from "../../src/integrations/webhooks/addresses.ts";

// https://www.iana.org/assignments/iana-ipv4-special-registry (every entry), then multicast
// (RFC 5771) and the cloud metadata addresses.
const IPV4_SPECIAL = [
  "0.0.0.0/8",
  "0.0.0.0/32",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.0.0/29",
  "192.0.0.8/32",
  "192.0.0.9/32",
  "192.0.0.10/32",
  "192.0.0.170/32",
  "192.0.0.171/32",
  "192.0.2.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
  "192.88.99.0/24",
  "192.88.99.2/32",
  "192.168.0.0/16",
  "192.175.48.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "240.0.0.0/4",
  "255.255.255.255/32",
  "224.0.0.0/4",
  "169.254.169.254/32",
  "100.100.100.200/32",
  "192.0.0.192/32",
  "168.63.129.16/32",
];

// https://www.iana.org/assignments/iana-ipv6-special-registry (every entry), then the
// deprecated IPv4-compatible and site-local blocks, multicast and AWS's metadata address.
const IPV6_SPECIAL = [
  "::1/128",
  "::/128",
  "::ffff:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "100:0:0:1::/64",
  "2001::/23",
  "2001::/32",
  "2001:1::1/128",
  "2001:1::2/128",
  "2001:1::3/128",
  "2001:2::/48",
  "2001:3::/32",
  "2001:4:112::/48",
  "2001:10::/28",
  "2001:20::/28",
  "2001:30::/28",
  "2001:db8::/32",
  "2002::/16",
  "2620:4f:8000::/48",
  "3fff::/20",
  "5f00::/16",
  "fc00::/7",
  "fe80::/10",
  "::/96",
  "fec0::/10",
  "ff00::/8",
  "fd00:ec2::254/128",
];

interface Block {
  version: 4 | 6;
  first: bigint;
  last: bigint;
}

/** A CIDR as its first and last address, by the test's own arithmetic. */
function blockOf(cidr: string): Block {
  const [text, bits] = cidr.split("/");
  const version = text.includes(":") ? 6 : 4;
  const width = version === 4 ? 32n : 128n;
  const size = 1n << (width - BigInt(bits));
  const first = version === 4
    ? text.split(".").reduce((n, part) => (n << 8n) | BigInt(part), 0n)
    : expandV6(text);
  return { version, first, last: first + size - 1n };
}

function expandV6(text: string): bigint {
  const [head, tail = ""] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** An address's text: dotted decimal, or eight uncompressed hex groups. */
function textOf(version: 4 | 6, n: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join(".");
  return Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16))
    .join(":");
}

const BLOCKS = [...IPV4_SPECIAL, ...IPV6_SPECIAL].map(blockOf);
const GLOBAL_UNICAST = blockOf("2000::/3");

/** Whether the test's own tables hold `n`. */
function expectedSpecial(version: 4 | 6, n: bigint): boolean {
  if (BLOCKS.some((b) => b.version === version && b.first <= n && n <= b.last)) return true;
  return version === 6 && !(GLOBAL_UNICAST.first <= n && n <= GLOBAL_UNICAST.last);
}

Deno.test("[webhook addresses] every registry block is refused at both ends, its neighbours follow the tables", () => {
  let checked = 0;
  for (const cidr of [...IPV4_SPECIAL, ...IPV6_SPECIAL]) {
    const { version, first, last } = blockOf(cidr);
    const max = version === 4 ? (1n << 32n) - 1n : (1n << 128n) - 1n;
    for (const n of [first, first + (last - first) / 2n, last]) {
      assert.ok(specialRangeOf(textOf(version, n)), `${textOf(version, n)} in ${cidr}`);
      checked++;
    }
    for (const n of [first - 1n, last + 1n].filter((x) => x >= 0n && x <= max)) {
      const text = textOf(version, n);
      assert.equal(specialRangeOf(text) !== undefined, expectedSpecial(version, n), text);
      checked++;
    }
  }
  assert.ok(checked > 250, `${checked} addresses checked`);
});

Deno.test("[webhook addresses] public addresses pass; the review's addresses and other spellings do not", () => {
  for (
    const address of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.215.14",
      "100.63.255.255",
      "100.128.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "223.255.255.255",
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
      "2a00:1450:4001:80b::200e",
      "[2606:4700::6810:84e5]",
    ]
  ) {
    assert.equal(specialRangeOf(address), undefined, address);
  }
  const named: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["100.100.100.200", "cloud metadata (Alibaba)"],
    ["169.254.169.254", "cloud metadata (AWS, GCP, Azure)"],
    ["100.64.0.1", "shared address space"],
    ["0.0.0.1", "this network"],
    ["198.18.0.1", "benchmarking"],
    ["::ffff:127.0.0.1", "IPv4-mapped"],
    ["::ffff:7f00:1", "IPv4-mapped"],
    ["[::1]", "loopback"],
    ["::127.0.0.1", "IPv4-compatible (deprecated)"],
    ["64:ff9b::a9fe:a9fe", "IPv4-IPv6 translation (NAT64)"],
    ["FD00:EC2::254", "cloud metadata (AWS)"],
    ["fe80::1", "link-local unicast"],
    ["fdff::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["4000::1", "not global unicast"],
  ];
  for (const [address, name] of named) assert.equal(specialRangeOf(address)?.name, name, address);
  // Anything that is not one canonical address is never taken for a public one.
  for (
    const text of [
      "",
      "localhost",
      "0x7f.0.0.1",
      "0177.0.0.1",
      "127.1",
      "2130706433",
      "1.2.3.4.5",
      "256.1.1.1",
      "fe80::1%eth0",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "1.2.3.4::",
      "12345::",
    ]
  ) {
    assert.equal(parseIp(text), undefined, text);
    assert.ok(specialRangeOf(text), text);
  }
  assert.equal(isLoopback("127.8.9.10"), true);
  assert.equal(isLoopback("::1"), true);
  assert.equal(isLoopback("::ffff:127.0.0.1"), false, "mapped loopback is not the demo's");
  assert.equal(isLoopback("10.0.0.1"), false);
});
