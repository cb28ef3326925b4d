/**
 * A link to a record's page (its show page, else its edit page), only where the panel has such a page and the staff
 * member may open it (the permission its route names: `canAccess`); otherwise the same text without a link, so no
 * link leads to «دسترسی رد شد» (access denied) or to a page that does not exist.
 */
import type { ReactNode } from 'react';
import { useCanAccess, useResourceDefinitions } from 'react-admin';
import { Link } from 'react-router-dom';
import { resourceContract } from '../api/contract';

/** Where record `id` of `resource` opens for this staff member (a path of the panel), or undefined. */
export function useRecordPage(resource: string | undefined): (id: string | number) => string | undefined {
  const definitions = useResourceDefinitions();
  const definition = resource ? definitions[resource] : undefined;
  const view = definition?.hasShow ? 'show' : definition?.hasEdit ? 'edit' : undefined;
  const { canAccess } = useCanAccess({ resource: resource ?? '', action: view ?? 'show', enabled: view !== undefined });
  return (id) => {
    if (!resource || !view || !canAccess || !resourceContract(resource)) return undefined;
    return `/${resource}/${encodeURIComponent(String(id))}${view === 'show' ? '/show' : ''}`;
  };
}

/** `children` linked to record `id` of `resource` when {@link useRecordPage} finds its page; else `children` alone. */
export function RecordPageLink({ resource, id, children }: { resource: string | undefined; id: string | number; children: ReactNode }) {
  const page = useRecordPage(resource)(id);
  return page ? <Link to={page}>{children}</Link> : <>{children}</>;
}
