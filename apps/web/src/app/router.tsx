import { spaRoutes } from '@upnext/contract/routes';
import { Navigate, type RouteObject } from 'react-router';
import type { RouteHandle } from './components/DocumentTitle.tsx';
import { PageLoader } from './components/PageLoader.tsx';
import { RootErrorBoundary, RouteErrorBoundary } from './components/RouteErrorBoundary.tsx';
import { PublicLayout } from './layouts/PublicLayout.tsx';
import { RootLayout } from './layouts/RootLayout.tsx';
import { RequireSignIn } from './RequireSignIn.tsx';

const title = (key: string): RouteHandle => ({ title: key });

// Every page is its own chunk (`lazy`): the public pages never download the admin area.
const marketing = {
  home: () => import('../features/marketing/pages/HomePage.tsx'),
  pricing: () => import('../features/marketing/pages/PricingPage.tsx'),
  services: () => import('../features/marketing/pages/ServicesPage.tsx'),
  about: () => import('../features/marketing/pages/AboutPage.tsx'),
  privacy: () => import('../features/marketing/pages/PrivacyPolicyPage.tsx'),
  terms: () => import('../features/marketing/pages/TermsPage.tsx'),
  notFound: () => import('../features/marketing/pages/NotFoundPage.tsx'),
};

// The home page plus the set-new-password dialog (auth).
const updatePassword = () => import('./routes/UpdatePasswordPage.tsx');

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
              { path: spaRoutes.home, lazy: marketing.home, handle: title('home') },
              // The password-reset email lands on either spelling; both show the home page.
              { path: spaRoutes.updatePassword, lazy: updatePassword, handle: title('home') },
              { path: spaRoutes.updatePasswordAlias, lazy: updatePassword, handle: title('home') },
              { path: spaRoutes.pricing, lazy: marketing.pricing, handle: title('pricing') },
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
                lazy: () => import('./routes/PaymentSuccessPage.tsx'),
                handle: title('paymentSuccess'),
              },
              {
                // Not guarded (spec §2): the checkout may return to a browser without a session.
                path: spaRoutes.adminPaymentSuccess,
                lazy: () => import('./routes/admin/PaymentSuccessPage.tsx'),
                handle: title('adminPaymentSuccess'),
              },
              {
                path: spaRoutes.login,
                lazy: () => import('./routes/LoginPage.tsx'),
                handle: title('login'),
              },
              {
                path: spaRoutes.join,
                lazy: () => import('./routes/JoinPage.tsx'),
                handle: title('join'),
              },
              {
                path: spaRoutes.devMailbox,
                lazy: () => import('./routes/DevMailboxPage.tsx'),
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
        lazy: () => import('./routes/DisplayPage.tsx'),
        errorElement: <RootErrorBoundary />,
        handle: title('display'),
      },
      {
        // The sandbox card checkout stands alone, without the site's header and footer.
        path: spaRoutes.sandboxCheckout,
        lazy: () => import('./routes/SandboxCheckoutPage.tsx'),
        errorElement: <RootErrorBoundary />,
        handle: title('sandboxCheckout'),
      },
      {
        path: spaRoutes.admin,
        element: <RequireSignIn />,
        children: [
          {
            path: spaRoutes.adminMeeting,
            lazy: () => import('./routes/admin/MeetingPage.tsx'),
            errorElement: <RootErrorBoundary />,
            handle: title('adminMeeting'),
          },
          {
            lazy: () => import('./layouts/AdminLayout.tsx'),
            children: [
              {
                errorElement: <RouteErrorBoundary />,
                children: [
                  // Every signed-in user has "My sessions" (clients and staff alike): start there.
                  { index: true, element: <Navigate to={spaRoutes.adminMySessions} replace /> },
                  {
                    path: spaRoutes.adminQueues,
                    lazy: () => import('./routes/admin/QueuesPage.tsx'),
                    handle: title('adminQueues'),
                  },
                  {
                    path: spaRoutes.adminQueueSessions,
                    lazy: () => import('./routes/admin/QueueSessionsPage.tsx'),
                    handle: title('adminQueueSessions'),
                  },
                  {
                    path: spaRoutes.adminMySessions,
                    lazy: () => import('./routes/admin/MySessionsPage.tsx'),
                    handle: title('adminMySessions'),
                  },
                  {
                    path: spaRoutes.adminLiveSession,
                    lazy: () => import('./routes/admin/LiveSessionPage.tsx'),
                    handle: title('adminLiveSession'),
                  },
                  {
                    path: spaRoutes.adminSessionControl,
                    lazy: () => import('./routes/admin/SessionControlPage.tsx'),
                    handle: title('adminSessionControl'),
                  },
                  {
                    path: spaRoutes.adminSessionTokens,
                    lazy: () => import('./routes/admin/SessionTokensPage.tsx'),
                    handle: title('adminSessionTokens'),
                  },
                  {
                    path: spaRoutes.adminScheduleSession,
                    lazy: () => import('./routes/admin/ScheduleSessionPage.tsx'),
                    handle: title('adminScheduleSession'),
                  },
                  {
                    path: spaRoutes.adminCompany,
                    lazy: () => import('./routes/admin/CompanyPage.tsx'),
                    handle: title('adminCompany'),
                  },
                  {
                    path: spaRoutes.adminAccount,
                    lazy: () => import('./routes/admin/AccountPage.tsx'),
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
