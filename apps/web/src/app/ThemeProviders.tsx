import { DirectionProvider, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { cssVariablesResolver, theme } from './theme.ts';

/**
 * UpNext's look for a page's whole tree, the app's (AppProviders) and the boards' light entry
 * (display.tsx) alike. Follows <html dir>, which the language sets: components mirror in RTL.
 * `env` 'test' turns off Mantine's transitions and portals so tests see the DOM at once.
 */
export function ThemeProviders({
  children,
  env = 'default',
}: {
  children: ReactNode;
  env?: 'default' | 'test';
}) {
  return (
    <DirectionProvider>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        env={env}
      >
        {children}
      </MantineProvider>
    </DirectionProvider>
  );
}
