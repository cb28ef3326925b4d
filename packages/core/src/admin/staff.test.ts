/** Staff passwords (Argon2id, legacy scrypt still verifying) and Django-style permissions. */
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { ALL_PERMISSIONS, hasPermission, permissionsOf, STAFF_PERMISSIONS, SUPERUSER_PERMISSIONS } from './permissions';

describe('passwords', () => {
  it('hashes with Argon2id, verifies the right password only, with a fresh salt each time', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(hash).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(await verifyPassword('x', '$argon2id$v=19$garbage')).toBe(false);
  });

  it('still verifies a legacy scrypt hash, and marks it for rehashing', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('old staff password', salt, 64, { N: 16384, r: 8, p: 1 });
    const legacy = ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    expect(await verifyPassword('old staff password', legacy)).toBe(true);
    expect(await verifyPassword('old staff passworD', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
  });
});

describe('permissions', () => {
  const base = { isSuperuser: false };
  it('gives a superuser everything, superuser-only ones included, and others what they hold', () => {
    expect(hasPermission({ isSuperuser: true, permissions: [] }, 'change_order')).toBe(true);
    expect(hasPermission({ isSuperuser: true, permissions: [] }, 'add_discountcode')).toBe(true);
    expect(hasPermission({ ...base, permissions: ['view_order'] }, 'view_order')).toBe(true);
    expect(hasPermission({ ...base, permissions: ['view_order'] }, 'change_order')).toBe(false);
    expect(permissionsOf({ isSuperuser: true, permissions: [] })).toEqual(ALL_PERMISSIONS);
    expect(permissionsOf({ ...base, permissions: ['view_plan'] })).toEqual(['view_plan']);
  });

  it('names every permission Django-style and never lets superuser-only ones be granted', () => {
    for (const p of ALL_PERMISSIONS) expect(p).toMatch(/^(view|add|change|delete)_[a-z]+$/);
    for (const p of SUPERUSER_PERMISSIONS) expect(STAFF_PERMISSIONS as readonly string[]).not.toContain(p);
    expect(SUPERUSER_PERMISSIONS).toEqual(expect.arrayContaining(['view_staff', 'view_session', 'view_otprecord', 'add_discountcode']));
  });
});
