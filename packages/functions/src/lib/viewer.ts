/**
 * Who is calling (DESIGN §12): the viewer address of a request that came through the edge, from CloudFront's
 * `CloudFront-Viewer-Address` header (`ip:port`; an IPv6 address without brackets, so the port is after the last
 * `:`). Never `X-Forwarded-For`, never API Gateway's `sourceIp` (the edge server's address).
 *
 * Parsed by the platform, not by hand: node:net's `isIP` checks the address strictly, and the WHATWG URL parser
 * (which every Node carries) writes an IPv6 address in its canonical form, compressed and with an embedded IPv4 part
 * as hex, so only the `::` run is left to expand. (ipaddr.js would do the same for 12 KiB more in every Lambda bundle,
 * over the groups' 300 KiB budget.)
 *
 * The throttle key of an address: an IPv4 address as it is; an IPv6 address by its /64 network (one subscriber's
 * prefix: a host picks any of its 2^64 addresses at will, so counting single IPv6 addresses would count nothing);
 * an IPv4-mapped IPv6 address as its IPv4 address.
 */
import { isIP } from 'node:net';

/** The viewer of a request. */
export interface Viewer {
  /** The viewer's IP address in its canonical text (`198.51.100.7`, `2001:db8::1`), or `unknown`. */
  ip: string;
  /** What per-IP throttles count: `ip:198.51.100.7`, `ip:2001:db8:0:1::/64`, or `ip:unknown`. */
  throttleKey: string;
}

/** The viewer when the edge named none (or an unparsable one): all such requests share one count. */
export const UNKNOWN_VIEWER: Viewer = { ip: 'unknown', throttleKey: 'ip:unknown' };

/** The address part of a `CloudFront-Viewer-Address` value: everything before the last `:` (the port after it). */
function addressPart(value: string): string | undefined {
  const at = value.lastIndexOf(':');
  if (at <= 0 || !/^[0-9]{1,5}$/.test(value.slice(at + 1))) return undefined;
  return value.slice(0, at);
}

/** An IPv6 address in the URL standard's canonical text (lower case, longest zero run as `::`, no dotted part). */
const canonicalIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

/** The eight 16-bit groups of a canonical IPv6 address. */
function groupsOf(canonical: string): number[] {
  const [head = '', tail] = canonical.split('::');
  const parts = (text: string) => (text ? text.split(':').map((g) => Number.parseInt(g, 16)) : []);
  if (tail === undefined) return parts(head);
  const [before, after] = [parts(head), parts(tail)];
  return [...before, ...new Array(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The viewer of a `CloudFront-Viewer-Address` value (`198.51.100.7:443`, `2001:db8::1:443`). A missing or malformed
 * value is {@link UNKNOWN_VIEWER}.
 */
export function viewerOf(headerValue: string | undefined): Viewer {
  const text = headerValue ? addressPart(headerValue.trim()) : undefined;
  const family = text ? isIP(text) : 0;
  if (!text || family === 0) return UNKNOWN_VIEWER;
  if (family === 4) return { ip: text, throttleKey: `ip:${text}` };
  const ip = canonicalIpv6(text);
  const groups = groupsOf(ip);
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 viewer.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = [(groups[6] ?? 0) >> 8, (groups[6] ?? 0) & 0xff, (groups[7] ?? 0) >> 8, (groups[7] ?? 0) & 0xff].join('.');
    return { ip: v4, throttleKey: `ip:${v4}` };
  }
  const network = canonicalIpv6(
    `${groups
      .slice(0, 4)
      .map((g) => g.toString(16))
      .join(':')}::`,
  );
  return { ip, throttleKey: `ip:${network}/64` };
}

/** The `CloudFront-Viewer-Address` value of a socket's peer (what CloudFront would send): `ip:port`, IPv6 unbracketed. */
export function viewerAddressHeader(remoteAddress: string | undefined, remotePort: number | undefined): string {
  return `${remoteAddress ?? '127.0.0.1'}:${remotePort ?? 0}`;
}
