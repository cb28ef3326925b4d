import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_VIEWER, viewerAddressHeader, viewerOf } from './viewer';

describe('the viewer of CloudFront-Viewer-Address (DESIGN §12)', () => {
  it('takes an IPv4 address without its port', () => {
    expect(viewerOf('198.51.100.7:46532')).toEqual({ ip: '198.51.100.7', throttleKey: 'ip:198.51.100.7' });
  });

  it('splits an unbracketed IPv6 address at the last colon and counts its /64', () => {
    expect(viewerOf('2001:db8:85a3:12:8a2e:370:7334:1:443')).toEqual({
      ip: '2001:db8:85a3:12:8a2e:370:7334:1',
      throttleKey: 'ip:2001:db8:85a3:12::/64',
    });
    // Every address of one /64 is one subscriber; the next /64 is another.
    expect(viewerOf('2001:db8:85a3:12::99:1').throttleKey).toBe('ip:2001:db8:85a3:12::/64');
    expect(viewerOf('2001:db8:85a3:13::1:1').throttleKey).toBe('ip:2001:db8:85a3:13::/64');
    // Written long or short, the same network.
    expect(viewerOf('2001:0db8:85a3:0012:0000:0000:0000:0001:80').throttleKey).toBe('ip:2001:db8:85a3:12::/64');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(viewerOf('::ffff:198.51.100.7:1234')).toEqual({ ip: '198.51.100.7', throttleKey: 'ip:198.51.100.7' });
  });

  it('is unknown without a value or with one that is no ip:port', () => {
    for (const value of [undefined, '', '198.51.100.7', 'example.com:443', '1.2.3:80', '::1', ':443', '198.51.100.7:x', '[::1]:443'])
      expect(viewerOf(value), String(value)).toEqual(UNKNOWN_VIEWER);
  });

  it('reads back what the local edge writes for a socket', () => {
    expect(viewerOf(viewerAddressHeader('127.0.0.1', 53000)).ip).toBe('127.0.0.1');
    expect(viewerOf(viewerAddressHeader('::1', 53000)).ip).toBe('::1');
    expect(viewerOf(viewerAddressHeader('::ffff:10.0.0.2', 53000)).ip).toBe('10.0.0.2');
  });
});

describe('IPv6 viewers by /64 (property)', () => {
  it('gives every host of one /64 the same key, and the key names that network', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), (network, hostA, hostB) => {
        // Not an IPv4-mapped network (those are IPv4 viewers).
        fc.pre(!(network.every((g) => g === 0) && hostA[0] === 0 && hostA[1] === 0xffff));
        fc.pre(!(network.every((g) => g === 0) && hostB[0] === 0 && hostB[1] === 0xffff));
        const text = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
        const a = viewerOf(`${text([...network, ...hostA])}:443`);
        const b = viewerOf(`${text([...network, ...hostB])}:51000`);
        expect(a.throttleKey).toBe(b.throttleKey);
        expect(a.throttleKey).toBe(`ip:${new URL(`http://[${text(network)}::]/`).hostname.slice(1, -1)}/64`);
      }),
    );
  });

  it('reads IPv6 written with a dotted IPv4 tail like its hex form', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const hex = new URL(`http://[${address}]/`).hostname.slice(1, -1);
        expect(viewerOf(`${address}:1`)).toEqual(viewerOf(`${hex}:1`));
      }),
    );
  });
});
