import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AppProviders } from '../app/AppProviders.tsx';

/** Render inside the app's providers, with Mantine's test mode and a fresh query cache. */
export function renderWithProviders(ui: ReactElement, queryClient = new QueryClient()) {
  return render(
    <AppProviders queryClient={queryClient} env="test">
      {ui}
    </AppProviders>,
  );
}
