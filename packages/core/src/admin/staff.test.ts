/** Staff passwords: scrypt hashes that verify, never the password itself, salted per hash. */
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';
import { hasPermission } from './staff';

describe('passwords', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});

describe('hasPermission', () => {
  it('gives a superuser everything and others what they hold', () => {
    const base = { username: 'a', active: true, createdAt: 0 };
    expect(hasPermission({ ...base, isSuperuser: true, permissions: [] }, 'orders.change')).toBe(true);
    expect(hasPermission({ ...base, isSuperuser: false, permissions: ['orders.view'] }, 'orders.view')).toBe(true);
    expect(hasPermission({ ...base, isSuperuser: false, permissions: ['orders.view'] }, 'orders.change')).toBe(false);
  });
});
