/**
 * Who is calling (DESIGN §12): the viewer address of a request that came through the edge, from CloudFront's
 * `CloudFront-Viewer-Address` header (`ip:port`; an IPv6 address without brackets, so the port is after the last
 * `:`). Parsed with ipaddr.js. Never `X-Forwarded-For`, never API Gateway's `sourceIp` (the edge server's address).
 *
 * The throttle key of an address: an IPv4 address as it is; an IPv6 address by its /64 network (one subscriber's
 * prefix: a host picks any of its 2^64 addresses at will, so counting single IPv6 addresses would count nothing);
 * an IPv4-mapped IPv6 address as its IPv4 address.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

/**
 * The viewer of a `CloudFront-Viewer-Address` value (`198.51.100.7:443`, `2001:db8::1:443`). A missing or malformed
 * value is {@link UNKNOWN_VIEWER}.
 */
export function viewerOf(headerValue: string | undefined): Viewer {
  const text = headerValue ? addressPart(headerValue.trim()) : undefined;
  // node:net's strict check first: ipaddr.js also takes legacy IPv4 forms such as `1.2.3`.
  if (!text || isIP(text) === 0) return UNKNOWN_VIEWER;
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  if (address.kind() === 'ipv4') {
    const ip = address.toString();
    return { ip, throttleKey: `ip:${ip}` };
  }
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  const network = ipaddr.fromByteArray([...parts.flatMap((p) => [p >> 8, p & 0xff]), ...new Array(8).fill(0)]);
  return { ip: address.toString(), throttleKey: `ip:${network.toString()}/64` };
}

/** The `CloudFront-Viewer-Address` value of a socket's peer (what CloudFront would send): `ip:port`, IPv6 unbracketed. */
export function viewerAddressHeader(remoteAddress: string | undefined, remotePort: number | undefined): string {
  return `${remoteAddress ?? '127.0.0.1'}:${remotePort ?? 0}`;
}
