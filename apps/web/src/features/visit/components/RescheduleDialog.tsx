import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { Session, SessionService, Slot } from '@upnext/contract/sessions';
import type { QueueToken } from '@upnext/contract/tokens';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { addDays, formatDay, shortTime, todayLocal } from '../../../entities/session/format.ts';
import { formatInstant } from '../../../entities/token/format.ts';
import { useRescheduleBooking } from '../api/rescheduleBooking.ts';
import { useUpcomingSessions } from '../api/upcomingSessions.ts';
import { ChangeRule } from './ChangeRule.tsx';
import { SlotPicker } from './SlotPicker.tsx';
import { visitErrorText } from './visitError.ts';

/** How far ahead a booking may be moved from My visits. */
const RESCHEDULE_DAYS = 14;

type Target = { session: Session; service: SessionService; slot: Slot };

/**
 * Moving a booking (issue 16): a session of its queue, one of its free slots, then a
 * confirmation naming both times; the booking keeps its place until the server moved it.
 */
export function RescheduleDialog({
  token,
  onClose,
  onMoved,
}: {
  token: QueueToken | null;
  onClose: () => void;
  onMoved: (token: QueueToken) => void;
}) {
  const { t } = useTranslation('visit');
  return (
    <Modal
      opened={token !== null}
      onClose={onClose}
      title={t('reschedule.title', { number: token?.displayNumber ?? '' })}
      size="lg"
      closeButtonProps={{ 'aria-label': t('reschedule.keep') }}
    >
      {token ? <RescheduleSteps token={token} onClose={onClose} onMoved={onMoved} /> : null}
    </Modal>
  );
}

function RescheduleSteps({
  token,
  onClose,
  onMoved,
}: {
  token: QueueToken;
  onClose: () => void;
  onMoved: (token: QueueToken) => void;
}) {
  const { t, i18n } = useTranslation('visit');
  const from = todayLocal();
  const sessions = useUpcomingSessions(token.queueId, from, addDays(from, RESCHEDULE_DAYS - 1));
  const [sessionId, setSessionId] = useState(token.sessionId);
  const [target, setTarget] = useState<Target | null>(null);
  const move = useRescheduleBooking();
  const label = (session: Session) =>
    t('join.sessionLabel', {
      day: formatDay(session.date, i18n.language),
      time: t('join.sessionTime', {
        start: shortTime(session.startTime),
        end: shortTime(session.endTime),
      }),
    });

  if (sessions.isPending) return <LoadingList rows={2} />;
  if (sessions.isError) {
    return <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />;
  }
  const chosen = sessions.data.find((session) => session.id === sessionId);

  if (target) {
    return (
      <Stack gap="md">
        <Text>
          {t('reschedule.confirmBody', {
            number: token.displayNumber,
            from: token.slotStartsAt ? formatInstant(token.slotStartsAt, i18n.language) : '',
            to: t('reschedule.toTime', {
              day: formatDay(target.session.date, i18n.language),
              time: shortTime(target.slot.startTime),
            }),
          })}
        </Text>
        <Text size="sm" c="dimmed">
          {target.service.serviceTypeName}
          {target.session.subQueueName ? ` · ${target.session.subQueueName}` : ''}
        </Text>
        {move.error ? (
          <Notice tone="red" role="alert">
            {visitErrorText(move.error)}
          </Notice>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            disabled={move.isPending}
            onClick={() => {
              move.reset();
              setTarget(null);
            }}
          >
            {t('reschedule.back')}
          </Button>
          <Button
            loading={move.isPending}
            onClick={() =>
              move.mutate(
                {
                  tokenId: token.id,
                  serviceId: target.service.id,
                  slotNo: target.slot.slotNo,
                },
                { onSuccess: onMoved },
              )
            }
          >
            {t('reschedule.confirm')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <ChangeRule changeUntil={token.changeUntil} />
      <Select
        label={t('reschedule.session')}
        data={sessions.data.map((session) => ({
          value: session.id,
          label: session.subQueueName
            ? `${label(session)} · ${session.subQueueName}`
            : label(session),
        }))}
        value={chosen ? sessionId : null}
        onChange={(value) => value && setSessionId(value)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      {chosen ? (
        <SlotPicker
          // Its chosen service is the session's own: a new session starts afresh.
          key={chosen.id}
          sessionId={chosen.id}
          busy={false}
          currentSlot={
            token.serviceId && token.slotNo !== null
              ? { serviceId: token.serviceId, slotNo: token.slotNo }
              : undefined
          }
          onPick={(service, slot) => setTarget({ session: chosen, service, slot })}
        />
      ) : (
        <Text c="dimmed">{t('reschedule.noSessions')}</Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('reschedule.keep')}
        </Button>
      </Group>
    </Stack>
  );
}
