import net from 'node:net';

/**
 * The address a per-IP limit counts. An IPv6 client usually holds a whole /64 (one household or
 * phone gets 2^64 addresses), so counting single addresses would let it rotate past any limit:
 * IPv6 addresses are counted by their /64. An IPv4 address carried inside IPv6 (IPv4-mapped
 * `::ffff:0:0/96`, or the NAT64 well-known prefix `64:ff9b::/96`) counts as that IPv4 address: by
 * its /64 every IPv4 client would share one bucket, and one of them could use it up for all.
 */
export function rateLimitAddress(ip: string): string {
  if (!net.isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (carriesIpv4(groups)) return ipv4Of(groups[6]!, groups[7]!);
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

const ipv4MappedPrefix = [0, 0, 0, 0, 0, 0xffff];
const nat64WellKnownPrefix = [0x64, 0xff9b, 0, 0, 0, 0];

function carriesIpv4(groups: number[]): boolean {
  const startsWith = (prefix: number[]) => prefix.every((group, index) => groups[index] === group);
  return startsWith(ipv4MappedPrefix) || startsWith(nat64WellKnownPrefix);
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of a valid IPv6 address; a dotted IPv4 tail stands for the last two. */
function ipv6Groups(ip: string): number[] {
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const parts = (text: string) =>
    (text ? text.split(':') : []).flatMap((group) => {
      if (!group.includes('.')) return [parseInt(group, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const left = parts(head);
  if (tail === undefined) return left;
  const right = parts(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** An address or a CIDR block (`10.0.0.0/8`, `fd00::/8`) as TRUST_PROXY takes it. */
export function isAddressOrBlock(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
