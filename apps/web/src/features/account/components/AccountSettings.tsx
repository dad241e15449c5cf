import { Alert, Button, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useAccountUser } from '../hooks/useAccountUser.ts';
import { EmailSection } from './EmailSection.tsx';
import { IdentitiesSection } from './IdentitiesSection.tsx';
import { MfaSection } from './MfaSection.tsx';
import { PasskeysSection } from './PasskeysSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { PhoneSection } from './PhoneSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';

/**
 * `/admin/account`: profile, email, phone, password, passkeys, MFA factors and linked identities;
 * `notices` (composed by the route, e.g. pending invitations) come first.
 */
export function AccountSettings({ notices }: { notices?: ReactNode }) {
  const { t } = useTranslation('account');
  const user = useAccountUser();

  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title={t('title')} description={t('description')} />
      {notices}
      {user.isPending ? (
        <Stack gap="lg" aria-busy>
          <Skeleton h={180} radius="lg" />
          <Skeleton h={140} radius="lg" />
          <Skeleton h={140} radius="lg" />
        </Stack>
      ) : user.isError ? (
        <Alert color="red" variant="light" title={t('loadError')}>
          {user.error.message}
          <Button mt="sm" variant="default" size="xs" onClick={() => void user.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : (
        <>
          <ProfileSection key={`profile-${user.data.updated_at}`} user={user.data} />
          <EmailSection user={user.data} />
          <PhoneSection user={user.data} />
          <PasswordSection />
          <PasskeysSection />
          <MfaSection user={user.data} />
          <IdentitiesSection user={user.data} />
        </>
      )}
    </Stack>
  );
}
