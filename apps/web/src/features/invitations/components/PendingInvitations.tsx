import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { Invitation } from '@upnext/contract/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useAnswerInvitation, useInvitations } from '../api/invitations.ts';

type Outcome = { tone: 'teal' | 'red' | 'gray'; text: string };

/**
 * The teams that invited the signed-in user, each with Accept and Decline. Nothing shows while
 * there are none: an invitation grants nothing until it is accepted here.
 */
export function PendingInvitations() {
  const { t } = useTranslation('invitations');
  const invitations = useInvitations();
  const answer = useAnswerInvitation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const respond = (invitation: Invitation, choice: 'accept' | 'decline') => {
    setOutcome(null);
    answer.mutate(
      { companyId: invitation.companyId, answer: choice },
      {
        onSuccess: () =>
          setOutcome({
            tone: choice === 'accept' ? 'teal' : 'gray',
            text: t(choice === 'accept' ? 'accepted' : 'declined', {
              company: invitation.companyName,
            }),
          }),
        onError: (error) =>
          setOutcome({
            tone: 'red',
            text: errorText(error, (code) =>
              code === 'invitation_not_found' ? t('notFound') : undefined,
            ),
          }),
      },
    );
  };

  if (invitations.isError) {
    return <LoadFailed message={t('loadFailed')} onRetry={() => void invitations.refetch()} />;
  }
  const list = invitations.data ?? [];
  if (list.length === 0 && !outcome) return null;

  return (
    <Paper
      component="section"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      aria-labelledby="invitations-title"
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="invitations-title">
            {t('title')}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {t('description')}
          </Text>
        </div>
        <div aria-live="polite">
          {outcome ? (
            <Notice tone={outcome.tone} role={outcome.tone === 'red' ? 'alert' : 'status'}>
              {outcome.text}
            </Notice>
          ) : null}
        </div>
        {list.length > 0 ? (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {list.map((invitation) => {
              const busy = answer.isPending && answer.variables?.companyId === invitation.companyId;
              return (
                <Paper component="li" key={invitation.companyId} withBorder radius="md" p="md">
                  <Group justify="space-between" wrap="wrap" gap="sm">
                    <div>
                      <Text fw={600}>{invitation.companyName}</Text>
                      <Text size="sm" c="dimmed">
                        {t('invitedAs', { role: t(`roles.${invitation.role}`) })}
                      </Text>
                    </div>
                    <Group gap="xs">
                      <Button
                        leftSection={<IconCheck size={16} aria-hidden />}
                        aria-label={t('acceptLabel', { company: invitation.companyName })}
                        loading={busy && answer.variables?.answer === 'accept'}
                        disabled={answer.isPending}
                        onClick={() => respond(invitation, 'accept')}
                      >
                        {t('accept')}
                      </Button>
                      <Button
                        variant="default"
                        leftSection={<IconX size={16} aria-hidden />}
                        aria-label={t('declineLabel', { company: invitation.companyName })}
                        loading={busy && answer.variables?.answer === 'decline'}
                        disabled={answer.isPending}
                        onClick={() => respond(invitation, 'decline')}
                      >
                        {t('decline')}
                      </Button>
                    </Group>
                  </Group>
                </Paper>
              );
            })}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
