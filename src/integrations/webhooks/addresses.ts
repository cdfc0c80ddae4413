// Which IP addresses a reseller's webhook may reach: none of the IANA special-purpose
// registries' blocks, nor multicast, nor the cloud metadata addresses. A callback URL is typed by
// a reseller, so without this our server would POST, from inside our network, to whatever the URL
// or its DNS names: the metadata service, the database, an admin port on localhost.
// Registries: https://www.iana.org/assignments/iana-ipv4-special-registry and
// https://www.iana.org/assignments/iana-ipv6-special-registry (every entry is refused, including
// the few marked globally reachable: no receiver of ours lives at an anycast relay).

/** A parsed address: its version and its bits as one number. */
export interface IpAddress {
  version: 4 | 6;
  bits: bigint;
}

/** A block an address may not be in, named as its registry names it. */
export interface SpecialRange {
  cidr: string;
  name: string;
}

const V4_RANGES: [string, string][] = [
  ["0.0.0.0/8", "this network"],
  ["0.0.0.0/32", "this host on this network"],
  ["10.0.0.0/8", "private-use"],
  ["100.64.0.0/10", "shared address space"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private-use"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.0.0/29", "IPv4 service continuity prefix"],
  ["192.0.0.8/32", "IPv4 dummy address"],
  ["192.0.0.9/32", "port control protocol anycast"],
  ["192.0.0.10/32", "TURN anycast"],
  ["192.0.0.170/32", "NAT64/DNS64 discovery"],
  ["192.0.0.171/32", "NAT64/DNS64 discovery"],
  ["192.0.2.0/24", "documentation (TEST-NET-1)"],
  ["192.31.196.0/24", "AS112-v4"],
  ["192.52.193.0/24", "AMT"],
  ["192.88.99.0/24", "deprecated (6to4 relay anycast)"],
  ["192.88.99.2/32", "6a44-relay anycast"],
  ["192.168.0.0/16", "private-use"],
  ["192.175.48.0/24", "direct delegation AS112 service"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation (TEST-NET-2)"],
  ["203.0.113.0/24", "documentation (TEST-NET-3)"],
  ["240.0.0.0/4", "reserved"],
  ["255.255.255.255/32", "limited broadcast"],
  // Not in the special-purpose registry, as unsafe to POST to.
  ["224.0.0.0/4", "multicast"],
  ["169.254.169.254/32", "cloud metadata (AWS, GCP, Azure)"],
  ["100.100.100.200/32", "cloud metadata (Alibaba)"],
  ["192.0.0.192/32", "cloud metadata (Oracle)"],
  ["168.63.129.16/32", "cloud platform (Azure WireServer)"],
];

const V6_RANGES: [string, string][] = [
  ["::1/128", "loopback"],
  ["::/128", "unspecified"],
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["64:ff9b::/96", "IPv4-IPv6 translation (NAT64)"],
  ["64:ff9b:1::/48", "IPv4-IPv6 translation (local NAT64)"],
  ["100::/64", "discard-only"],
  ["100:0:0:1::/64", "dummy IPv6 prefix"],
  ["2001::/23", "IETF protocol assignments"],
  ["2001::/32", "TEREDO"],
  ["2001:1::1/128", "port control protocol anycast"],
  ["2001:1::2/128", "TURN anycast"],
  ["2001:1::3/128", "DNS-SD service registration protocol anycast"],
  ["2001:2::/48", "benchmarking"],
  ["2001:3::/32", "AMT"],
  ["2001:4:112::/48", "AS112-v6"],
  ["2001:10::/28", "deprecated (ORCHID)"],
  ["2001:20::/28", "ORCHIDv2"],
  ["2001:30::/28", "drone remote ID protocol entity tags"],
  ["2001:db8::/32", "documentation"],
  ["2002::/16", "6to4"],
  ["2620:4f:8000::/48", "direct delegation AS112 service"],
  ["3fff::/20", "documentation"],
  ["5f00::/16", "segment routing (SRv6) SIDs"],
  ["fc00::/7", "unique-local"],
  ["fe80::/10", "link-local unicast"],
  // Not in the special-purpose registry, as unsafe to POST to.
  ["::/96", "IPv4-compatible (deprecated)"],
  ["fec0::/10", "site-local (deprecated)"],
  ["ff00::/8", "multicast"],
  ["fd00:ec2::254/128", "cloud metadata (AWS)"],
];

/** IPv6 unicast outside 2000::/3 is unassigned or special (RFC 4291 §2.4): all of it refused. */
const GLOBAL_UNICAST_V6 = "2000::/3";

/** The address `text` as a number, or undefined when it is not one canonical address. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseV4(bare);
  if (v4 !== undefined) return { version: 4, bits: v4 };
  const v6 = parseV6(bare);
  return v6 === undefined ? undefined : { version: 6, bits: v6 };
}

/** Dotted decimal only, no leading zeros: other spellings (octal, hex) mean different things. */
function parseV4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let bits = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    bits = (bits << 8n) | BigInt(part);
  }
  return bits;
}

/** Hex groups; a dotted IPv4 tail only where the address ends (`ending`). */
function parseGroups(text: string, ending: boolean): number[] | undefined {
  if (text === "") return [];
  const groups: number[] = [];
  const parts = text.split(":");
  for (const [i, part] of parts.entries()) {
    if (ending && i === parts.length - 1 && part.includes(".")) {
      const v4 = parseV4(part);
      if (v4 === undefined) return undefined;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
    else return undefined;
  }
  return groups;
}

/** RFC 4291 text: hex groups, one `::`, an optional dotted IPv4 tail; no zone (`%eth0`). */
function parseV6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1], true) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array(missing).fill(0), ...tail];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(group), 0n);
}

interface Block extends SpecialRange {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

function blockOf([cidr, name]: [string, string]): Block {
  const [address, prefix] = cidr.split("/");
  const parsed = parseIp(address);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  return { cidr, name, version: parsed.version, base: parsed.bits, prefix: Number(prefix) };
}

/** Longest prefix first, so an address is named by the narrowest block that holds it. */
const BLOCKS: Block[] = [...V4_RANGES, ...V6_RANGES].map(blockOf)
  .sort((a, b) => b.prefix - a.prefix);
const GLOBAL_UNICAST = blockOf([GLOBAL_UNICAST_V6, "global unicast"]);

function contains(block: Block, address: IpAddress): boolean {
  if (block.version !== address.version) return false;
  const shift = BigInt((address.version === 4 ? 32 : 128) - block.prefix);
  return (address.bits >> shift) === (block.base >> shift);
}

/**
 * The special-purpose block `address` is in, or undefined when it is an ordinary public address.
 * Text that is not one canonical address (a zone id, octal, garbage) is never public.
 */
export function specialRangeOf(address: string): SpecialRange | undefined {
  const parsed = parseIp(address);
  if (!parsed) return { cidr: address, name: "not an IP address" };
  const block = BLOCKS.find((b) => contains(b, parsed));
  if (block) return { cidr: block.cidr, name: block.name };
  if (parsed.version === 6 && !contains(GLOBAL_UNICAST, parsed)) {
    return { cidr: `outside ${GLOBAL_UNICAST_V6}`, name: "not global unicast" };
  }
  return undefined;
}

/** True for 127.0.0.0/8 and ::1, which a demo's own receiver listens on. */
export function isLoopback(address: string): boolean {
  return specialRangeOf(address)?.name === "loopback";
}
