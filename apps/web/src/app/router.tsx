import { spaRoutes } from '@upnext/contract/routes';
import { Navigate, type RouteObject } from 'react-router';
import { withNamespaces } from '../lib/i18n.ts';
import type { RouteHandle } from './components/DocumentTitle.tsx';
import { PageLoader } from './components/PageLoader.tsx';
import { RootErrorBoundary, RouteErrorBoundary } from './components/RouteErrorBoundary.tsx';
import { PublicLayout } from './layouts/PublicLayout.tsx';
import { RootLayout } from './layouts/RootLayout.tsx';
import { type PublicPath, publicPages } from './public-pages.ts';
import { RequireSignIn } from './RequireSignIn.tsx';

const title = (key: string): RouteHandle => ({ title: key });

// Every page is its own chunk (`lazy`), loaded with the text namespaces it shows (beyond
// `common`): the public pages never download the admin area nor its texts.
const marketingPage = <T,>(load: () => Promise<T>, part?: string) =>
  withNamespaces(load, 'marketing', ...(part ? [`marketing/${part}`] : []));
const marketing = {
  services: marketingPage(() => import('../features/marketing/pages/ServicesPage.tsx'), 'services'),
  about: marketingPage(() => import('../features/marketing/pages/AboutPage.tsx'), 'about'),
  privacy: marketingPage(
    () => import('../features/marketing/pages/PrivacyPolicyPage.tsx'),
    'privacy',
  ),
  terms: marketingPage(() => import('../features/marketing/pages/TermsPage.tsx'), 'terms'),
  notFound: marketingPage(() => import('../features/marketing/pages/NotFoundPage.tsx')),
};

// The home page plus the set-new-password dialog (auth).
const updatePassword = withNamespaces(
  () => import('./routes/UpdatePasswordPage.tsx'),
  'marketing',
  'marketing/home',
  'auth',
);

/** A page that also has a light start (`public-pages.ts`): one table for both. */
const publicRoute = (path: PublicPath): RouteObject => ({
  path,
  lazy: publicPages[path].load,
  handle: title(publicPages[path].title),
});

/** Route id of the catch-all, so tests can tell "not found" from a real page. */
export const NOT_FOUND_ROUTE_ID = 'not-found';

/**
 * Every path of `spaRoutes` (the contract shared with the server) is registered here. Paths
 * nested under `/admin` are written absolute, straight from the contract.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootErrorBoundary />,
    HydrateFallback: PageLoader,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              publicRoute(spaRoutes.home),
              // The password-reset email lands on either spelling; both show the home page.
              { path: spaRoutes.updatePassword, lazy: updatePassword, handle: title('home') },
              { path: spaRoutes.updatePasswordAlias, lazy: updatePassword, handle: title('home') },
              publicRoute(spaRoutes.pricing),
              { path: spaRoutes.services, lazy: marketing.services, handle: title('services') },
              { path: spaRoutes.aboutUs, lazy: marketing.about, handle: title('aboutUs') },
              {
                path: spaRoutes.privacyPolicy,
                lazy: marketing.privacy,
                handle: title('privacyPolicy'),
              },
              {
                path: spaRoutes.termsAndConditions,
                lazy: marketing.terms,
                handle: title('termsAndConditions'),
              },
              {
                // Public: the checkout may return to a browser without a session (spec §2).
                path: spaRoutes.paymentSuccess,
                lazy: withNamespaces(
                  () => import('./routes/PaymentSuccessPage.tsx'),
                  'visit',
                  'entities',
                ),
                handle: title('paymentSuccess'),
              },
              {
                // Not guarded (spec §2): the checkout may return to a browser without a session.
                path: spaRoutes.adminPaymentSuccess,
                lazy: withNamespaces(
                  () => import('./routes/admin/PaymentSuccessPage.tsx'),
                  'billing',
                  'marketing',
                  'marketing/pricing',
                ),
                handle: title('adminPaymentSuccess'),
              },
              {
                path: spaRoutes.login,
                lazy: withNamespaces(() => import('./routes/LoginPage.tsx'), 'auth'),
                handle: title('login'),
              },
              publicRoute(spaRoutes.join),
              {
                path: spaRoutes.visit,
                lazy: withNamespaces(() => import('./routes/VisitPage.tsx'), 'visit', 'entities'),
                handle: title('visit'),
              },
              {
                path: spaRoutes.devMailbox,
                lazy: withNamespaces(
                  () => import('./routes/DevMailboxPage.tsx'),
                  'devMailbox',
                  'auth',
                ),
                handle: title('devMailbox'),
              },
              {
                id: NOT_FOUND_ROUTE_ID,
                path: '*',
                lazy: marketing.notFound,
                handle: title('notFound'),
              },
            ],
          },
        ],
      },
      {
        path: spaRoutes.display,
        lazy: withNamespaces(() => import('./routes/DisplayPage.tsx'), 'display'),
        errorElement: <RootErrorBoundary />,
        handle: title('display'),
      },
      {
        path: spaRoutes.displayQueue,
        lazy: withNamespaces(() => import('./routes/BranchBoardPage.tsx'), 'display'),
        errorElement: <RootErrorBoundary />,
        handle: title('displayQueue'),
      },
      {
        // The sandbox card checkout stands alone, without the site's header and footer.
        path: spaRoutes.sandboxCheckout,
        lazy: withNamespaces(
          () => import('./routes/SandboxCheckoutPage.tsx'),
          'checkout',
          'entities',
        ),
        errorElement: <RootErrorBoundary />,
        handle: title('sandboxCheckout'),
      },
      {
        path: spaRoutes.admin,
        element: <RequireSignIn />,
        children: [
          {
            path: spaRoutes.adminMeeting,
            lazy: withNamespaces(() => import('./routes/admin/MeetingPage.tsx'), 'meeting', 'chat'),
            errorElement: <RootErrorBoundary />,
            handle: title('adminMeeting'),
          },
          {
            path: spaRoutes.adminKiosk,
            lazy: withNamespaces(() => import('./routes/admin/KioskPage.tsx'), 'live', 'entities'),
            errorElement: <RootErrorBoundary />,
            handle: title('adminKiosk'),
          },
          {
            lazy: withNamespaces(() => import('./layouts/AdminLayout.tsx'), 'account', 'auth'),
            children: [
              {
                errorElement: <RouteErrorBoundary />,
                children: [
                  // Every signed-in user has "My sessions" (clients and staff alike): start there.
                  { index: true, element: <Navigate to={spaRoutes.adminMySessions} replace /> },
                  {
                    path: spaRoutes.adminQueues,
                    lazy: withNamespaces(
                      () => import('./routes/admin/QueuesPage.tsx'),
                      'workspace',
                    ),
                    handle: title('adminQueues'),
                  },
                  {
                    path: spaRoutes.adminQueueSessions,
                    lazy: withNamespaces(
                      () => import('./routes/admin/QueueSessionsPage.tsx'),
                      'workspace',
                      'entities',
                    ),
                    handle: title('adminQueueSessions'),
                  },
                  {
                    path: spaRoutes.adminMySessions,
                    lazy: withNamespaces(
                      () => import('./routes/admin/MySessionsPage.tsx'),
                      'visit',
                      'entities',
                    ),
                    handle: title('adminMySessions'),
                  },
                  {
                    path: spaRoutes.adminLiveSession,
                    lazy: withNamespaces(
                      () => import('./routes/admin/LiveSessionPage.tsx'),
                      'live',
                      'entities',
                    ),
                    handle: title('adminLiveSession'),
                  },
                  {
                    path: spaRoutes.adminSessionControl,
                    lazy: withNamespaces(
                      () => import('./routes/admin/SessionControlPage.tsx'),
                      'workspace',
                      'entities',
                    ),
                    handle: title('adminSessionControl'),
                  },
                  {
                    path: spaRoutes.adminSessionTokens,
                    lazy: withNamespaces(
                      () => import('./routes/admin/SessionTokensPage.tsx'),
                      'live',
                      'entities',
                    ),
                    handle: title('adminSessionTokens'),
                  },
                  {
                    path: spaRoutes.adminScheduleSession,
                    lazy: withNamespaces(
                      () => import('./routes/admin/ScheduleSessionPage.tsx'),
                      'workspace',
                      'entities',
                    ),
                    handle: title('adminScheduleSession'),
                  },
                  {
                    // The charts (recharts) load with this page only.
                    path: spaRoutes.adminReports,
                    lazy: withNamespaces(
                      () => import('./routes/admin/ReportsPage.tsx'),
                      'reports',
                      'workspace',
                      'entities',
                    ),
                    handle: title('adminReports'),
                  },
                  {
                    path: spaRoutes.adminCompany,
                    lazy: withNamespaces(
                      () => import('./routes/admin/CompanyPage.tsx'),
                      'workspace',
                      'billing',
                      'marketing',
                      'marketing/pricing',
                      'entities',
                    ),
                    handle: title('adminCompany'),
                  },
                  {
                    path: spaRoutes.adminAccount,
                    lazy: withNamespaces(
                      () => import('./routes/admin/AccountPage.tsx'),
                      'account',
                      'auth',
                      'invitations',
                    ),
                    handle: title('adminAccount'),
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
