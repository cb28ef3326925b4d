/**
 * Who may read the staff history (DESIGN §9; docs/decisions.md "Staff history"), as Django admin decides it: the
 * whole history (every model, staff member, action) needs `view_logentry`; one record's own history (its page's
 * history tab: `model` and `objectId` given) needs only the permission to view that record (`view_<model>`; an
 * offer's with `view_discountcode` too; a discount code's with `view_offer` only while it is an offer, that is
 * advertised: `view_offer` shows no other code, so neither does its history). Superusers read all of it.
 */
import type { HistoryModel } from '../history';
import { adminErrors } from './errors';
import { ALL_PERMISSIONS, hasPermission, type Permission, type PermissionHolder } from './permissions';

/** Whether `staff` may view record `objectId` of `model`; `isOffer` tells whether a discount code is advertised now. */
async function mayViewRecord(
  staff: PermissionHolder,
  model: HistoryModel,
  objectId: string,
  isOffer: (code: string) => Promise<boolean>,
): Promise<boolean> {
  const own = `view_${model}` as Permission;
  if (ALL_PERMISSIONS.includes(own) && hasPermission(staff, own)) return true;
  if (model === 'offer') return hasPermission(staff, 'view_discountcode');
  if (model === 'discountcode' && hasPermission(staff, 'view_offer')) return isOffer(objectId);
  return false;
}

/**
 * Errors: `permission_denied` (naming `view_logentry`) unless `staff` may read the history `filter` selects (see the
 * module doc). `isOffer(code)`: whether that discount code is advertised now (read only for a `view_offer` holder).
 */
export async function requireHistoryAccess(
  staff: PermissionHolder,
  filter: { model?: HistoryModel; objectId?: string },
  isOffer: (code: string) => Promise<boolean>,
): Promise<void> {
  if (hasPermission(staff, 'view_logentry')) return;
  if (filter.model !== undefined && filter.objectId !== undefined && (await mayViewRecord(staff, filter.model, filter.objectId, isOffer)))
    return;
  throw adminErrors.permissionDenied('view_logentry');
}
