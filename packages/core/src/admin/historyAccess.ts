/**
 * Who may read the staff history (DESIGN §9; docs/decisions.md "Staff history"), as Django admin decides it: the
 * whole history (every model, staff member, action) needs `view_logentry`; one record's own history (its page's
 * history tab: `model` and `objectId` given) needs only the permission to view that record (`view_<model>`; a
 * discount code's history also with `view_offer`, since an offer is an advertised code). Superusers read all of it.
 */
import type { HistoryModel } from '../history';
import { adminErrors } from './errors';
import { ALL_PERMISSIONS, hasPermission, type Permission, type PermissionHolder } from './permissions';

/** The permissions any of which lets one see a record of `model`. */
function viewPermissionsOf(model: HistoryModel): Permission[] {
  const own = `view_${model}` as Permission;
  const related: Permission[] = model === 'discountcode' ? ['view_offer'] : model === 'offer' ? ['view_discountcode'] : [];
  return [own, ...related].filter((p) => ALL_PERMISSIONS.includes(p));
}

/**
 * Errors: `permission_denied` (naming `view_logentry`) unless `staff` may read the history `filter` selects (see the
 * module doc).
 */
export function requireHistoryAccess(staff: PermissionHolder, filter: { model?: HistoryModel; objectId?: string }): void {
  if (hasPermission(staff, 'view_logentry')) return;
  const oneRecord = filter.model !== undefined && filter.objectId !== undefined;
  if (oneRecord && viewPermissionsOf(filter.model as HistoryModel).some((p) => hasPermission(staff, p))) return;
  throw adminErrors.permissionDenied('view_logentry');
}
