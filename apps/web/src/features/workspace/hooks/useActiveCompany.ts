import type { UserData } from '@upnext/contract/users';
import { useCallback, useSyncExternalStore } from 'react';
import { useUserData } from '../../../entities/user/api.ts';

export type Membership = UserData['companies'][number];

const STORAGE_KEY = 'upnext.workspace.companyId';
const listeners = new Set<() => void>();

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Remember the chosen company for the next visit (and tell every open screen). */
export function storeActiveCompanyId(companyId: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, companyId);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

/**
 * The companies the signed-in user works in (not disabled there) and the one the workspace
 * shows: the remembered choice when it is still one of them, else the first.
 */
export function useActiveCompany() {
  const userData = useUserData();
  const stored = useSyncExternalStore(subscribe, readStored, () => null);
  const companies: Membership[] = (userData.data?.companies ?? []).filter(
    (membership) => membership.status !== 'disabled',
  );
  const active = companies.find((c) => c.companyId === stored) ?? companies[0] ?? null;
  const select = useCallback((companyId: string) => storeActiveCompanyId(companyId), []);
  return {
    userData,
    companies,
    active,
    select,
    /** Owners and admins manage the company; staff run sessions. */
    canManage: active?.role === 'owner' || active?.role === 'admin',
  };
}
