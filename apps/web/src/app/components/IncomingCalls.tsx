import { lazy, Suspense, useEffect } from 'react';
import { useCurrentUser } from '../../lib/auth-session.ts';
import { withNamespaces } from '../../lib/i18n.ts';
import { withAppCache } from './with-app-cache.tsx';

// Loaded only once someone is signed in: the public pages never download the call code. With
// the app's query cache around it (the light start of the public pages has none), and, where
// asked (`connect`), the realtime connection it listens on, which the app's providers keep.
const CallHost = lazy(
  withNamespaces(
    withAppCache(() =>
      Promise.all([
        import('../../features/meeting/components/CallHost.tsx'),
        import('../../lib/stomp-client.ts'),
      ]).then(
        ([host, { connectRealtimeToAuth }]) =>
          function ConnectedCallHost({ connect }: { connect: boolean }) {
            useEffect(() => (connect ? connectRealtimeToAuth() : undefined), [connect]);
            return <host.CallHost />;
          },
      ),
    ),
    'meeting',
    'chat',
  ),
);

/**
 * Spec §2 "App shell": the incoming-call dialog wherever a signed-in user is, in the app
 * (`RootLayout`) and on the public pages' light start (`light/PublicPage.tsx`, `connect`: it has
 * no realtime connection of its own).
 */
export function IncomingCalls({ connect = false }: { connect?: boolean }) {
  const user = useCurrentUser();
  if (!user?.email) return null;
  return (
    <Suspense fallback={null}>
      <CallHost key={user.id} connect={connect} />
    </Suspense>
  );
}
