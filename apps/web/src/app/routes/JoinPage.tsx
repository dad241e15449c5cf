import { Box, Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { joinCodeParam, legacyJoinCodeParam } from '@upnext/contract/routes';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { LoadingList } from '../../components/StateViews.tsx';
import { CodeForm } from '../../features/visit/components/CodeForm.tsx';
import { LazySignInDialog } from '../components/LazySignInDialog.tsx';
import { withAppCache } from '../components/with-app-cache.tsx';

// The flow after the code (its sessions, slots, tokens, payment and their schemas) loads once
// there is a code: the page without one (prerendered, what a visitor opens first) hydrates the
// code form alone. The light start, which a scanned join link opens too, has no query cache
// until then.
const JoinFlow = lazy(
  withAppCache(() =>
    import('../../features/visit/components/JoinFlow.tsx').then((module) => module.JoinFlow),
  ),
);

export function Component() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const [signInOpened, signIn] = useDisclosure(false);
  const code =
    (searchParams.get(joinCodeParam) ?? searchParams.get(legacyJoinCodeParam))?.trim() || null;

  const changeCode = (next: string | null) =>
    setSearchParams(next ? { [joinCodeParam]: next } : {});

  return (
    <Container size="sm" py={{ base: 32, sm: 56 }}>
      <PageHeader title={t('join.title')} description={t('join.description')} />
      {code ? (
        // A screen's height held from the first paint: the queue and its sessions arrive after
        // it, and would otherwise push the footer, in view below the placeholder, out of view
        // (a layout shift Lighthouse counted at 0.22 on a join link).
        <Box mih="100dvh">
          <Suspense fallback={<LoadingList rows={3} />}>
            <JoinFlow code={code} onCodeChange={changeCode} requestSignIn={signIn.open} />
          </Suspense>
        </Box>
      ) : (
        <CodeForm onSubmit={changeCode} />
      )}
      {/* The app's own sign-in dialog; after signing in the visitor stays on this page. */}
      <LazySignInDialog
        opened={signInOpened}
        onClose={signIn.close}
        redirectTo={location.pathname + location.search}
      />
    </Container>
  );
}
