import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { startAuth } from '../lib/auth-client.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { AppProviders } from './AppProviders.tsx';
import { routes } from './router.tsx';

const queryClient = createQueryClient();
// Before the router: auth-js must see an email link's or OAuth's `?code=` on the first load.
void startAuth(queryClient);
const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
