import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { bootAuth } from '../lib/auth-boot.ts';
import { queryClient } from '../lib/query-client.ts';
import { AppProviders } from './AppProviders.tsx';
import { routes } from './router.tsx';

// Before the router: with a stored session or a link's answer in the URL, the guards wait.
bootAuth();
const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
