import net from 'node:net';

/**
 * The address a per-IP limit counts. An IPv6 client usually holds a whole /64 (one household or
 * phone gets 2^64 addresses), so counting single addresses would let it rotate past any limit:
 * IPv6 addresses are counted by their /64, and IPv4 mapped into IPv6 as plain IPv4.
 */
export function rateLimitAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(ip)) return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

/** The eight groups of an IPv6 address, lower case without leading zeros. */
function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.toLowerCase().split('%')[0]!.split('::');
  const parts = (text: string) => (text ? text.split(':') : []);
  // A dotted IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) stands for the last two groups.
  const width = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - width(left) - width(right)).fill('0'), ...right];
  return groups.map((group) => (group.includes('.') ? group : parseInt(group, 16).toString(16)));
}

/** An address or a CIDR block (`10.0.0.0/8`, `fd00::/8`) as TRUST_PROXY takes it. */
export function isAddressOrBlock(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
