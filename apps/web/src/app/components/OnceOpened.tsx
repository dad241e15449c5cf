import { type ReactNode, Suspense, useState } from 'react';

/**
 * Renders `children` (a lazy dialog or drawer) from the first time `opened` is true: its code is
 * downloaded only when someone opens it, and it stays mounted so it closes with its transition.
 */
export function OnceOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
