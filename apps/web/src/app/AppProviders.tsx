import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n.ts';
import { connectRealtimeToAuth } from '../lib/stomp-client.ts';
import { NotificationsOnDemand } from './components/NotificationsOnDemand.tsx';
import { ThemeProviders } from './ThemeProviders.tsx';

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals so tests see the DOM at once. */
  env?: 'default' | 'test';
}

export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  // One STOMP connection while a user with an email is signed in (spec §4); none in tests.
  useEffect(() => (env === 'test' ? undefined : connectRealtimeToAuth()), [env]);
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProviders env={env}>
        <NotificationsOnDemand />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ThemeProviders>
    </I18nextProvider>
  );
}
