import { Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { joinCodeParam, legacyJoinCodeParam } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { JoinFlow } from '../../features/visit/components/JoinFlow.tsx';
import { LazySignInDialog } from '../components/LazySignInDialog.tsx';

export function Component() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const [signInOpened, signIn] = useDisclosure(false);
  const code =
    (searchParams.get(joinCodeParam) ?? searchParams.get(legacyJoinCodeParam))?.trim() || null;

  return (
    <Container size="sm" py={{ base: 32, sm: 56 }}>
      <PageHeader title={t('join.title')} description={t('join.description')} />
      <JoinFlow
        code={code}
        onCodeChange={(next) => setSearchParams(next ? { [joinCodeParam]: next } : {})}
        requestSignIn={signIn.open}
      />
      {/* The app's own sign-in dialog; after signing in the visitor stays on this page. */}
      <LazySignInDialog
        opened={signInOpened}
        onClose={signIn.close}
        redirectTo={location.pathname + location.search}
      />
    </Container>
  );
}
