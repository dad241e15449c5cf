import { ActionIcon, Button, Group, Menu, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconBroadcast,
  IconDots,
  IconListDetails,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerStop,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import {
  type Session,
  type SessionScope,
  type SessionStatus,
  sessionTransitions,
} from '@upnext/contract/sessions';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { BoardLinks } from '../../../entities/session/BoardLinks.tsx';
import { useDeleteSession } from '../api/deleteSession.ts';
import { useSetSessionStatus } from '../api/setSessionStatus.ts';
import { EditSessionForm } from './EditSessionForm.tsx';
import { ScopeChoice } from './ScopeChoice.tsx';

/** Path of the live console; a session without a sub-queue is run from "all". */
function liveSessionPath(session: Session): string {
  return buildPath(spaRoutes.adminLiveSession, {
    subQueueId: session.subQueueId ?? 'all',
    date: session.date,
    sessionId: session.id,
  });
}

const icons: Record<SessionStatus, ReactNode> = {
  open: <IconPlayerPlay size={16} aria-hidden />,
  paused: <IconPlayerPause size={16} aria-hidden />,
  closed: <IconPlayerStop size={16} aria-hidden />,
  cancelled: <IconX size={16} aria-hidden />,
  scheduled: null,
};

/** Closing and cancelling end the session for everyone waiting: ask first. */
const needsConfirmation: readonly SessionStatus[] = ['closed', 'cancelled'];

interface SessionActionsProps {
  session: Session;
  /** `control`: open, pause, close and go live (session control); `full` adds cancel, edit, delete. */
  variant: 'full' | 'control';
}

export function SessionActions({ session, variant }: SessionActionsProps) {
  const { t } = useTranslation('workspace');
  const narrow = useMediaQuery('(max-width: 36em)');
  const setStatus = useSetSessionStatus();
  const remove = useDeleteSession();
  const [confirming, setConfirming] = useState<SessionStatus | null>(null);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [scope, setScope] = useState<SessionScope>('this');

  const when = `${session.queueName}, ${session.date} ${session.startTime}–${session.endTime}`;
  const targets = sessionTransitions[session.status].filter(
    (status) => variant === 'full' || status !== 'cancelled',
  );
  const label = (status: SessionStatus) =>
    status === 'open' && session.status === 'paused'
      ? t('sessions.actions.resume')
      : t(`sessions.actions.${status}`);
  const change = (status: SessionStatus) => {
    if (needsConfirmation.includes(status)) setConfirming(status);
    else setStatus.mutate({ sessionId: session.id, status });
  };
  const live =
    session.status === 'open' || session.status === 'paused' || session.status === 'scheduled';

  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      {targets
        .filter((status) => status !== 'cancelled')
        .map((status) => (
          <Button
            key={status}
            size="xs"
            variant={status === 'open' ? 'filled' : 'default'}
            leftSection={icons[status]}
            loading={setStatus.isPending && setStatus.variables?.status === status}
            onClick={() => change(status)}
            aria-label={`${label(status)}: ${when}`}
          >
            {label(status)}
          </Button>
        ))}
      {variant === 'control' && live ? (
        <Button
          component={Link}
          to={liveSessionPath(session)}
          size="xs"
          color="grape"
          leftSection={<IconBroadcast size={16} aria-hidden />}
          aria-label={`${t('sessions.actions.goLive')}: ${when}`}
        >
          {t('sessions.actions.goLive')}
        </Button>
      ) : null}
      {variant === 'control' && live ? (
        <BoardLinks
          sessionId={session.id}
          queueId={session.queueId}
          queueName={session.queueName}
          when={when}
          size="xs"
        />
      ) : null}
      {variant === 'full' ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={t('sessions.actions.more', { when })}
            >
              <IconDots size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              component={Link}
              to={buildPath(spaRoutes.adminSessionTokens, { sessionId: session.id })}
              leftSection={<IconListDetails size={16} aria-hidden />}
            >
              {t('sessions.actions.tokens')}
            </Menu.Item>
            {live ? (
              <Menu.Item
                component={Link}
                to={liveSessionPath(session)}
                leftSection={<IconBroadcast size={16} aria-hidden />}
              >
                {t('sessions.actions.goLive')}
              </Menu.Item>
            ) : null}
            {session.status === 'scheduled' ||
            session.status === 'open' ||
            session.status === 'paused' ? (
              <Menu.Item
                leftSection={<IconPencil size={16} aria-hidden />}
                onClick={() => setEditing(true)}
              >
                {t('sessions.actions.edit')}
              </Menu.Item>
            ) : null}
            {targets.includes('cancelled') ? (
              <Menu.Item
                color="red.9"
                leftSection={icons.cancelled}
                onClick={() => setConfirming('cancelled')}
              >
                {t('sessions.actions.cancelled')}
              </Menu.Item>
            ) : null}
            <Menu.Item
              color="red.9"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeleting(true)}
            >
              {t('sessions.actions.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : null}

      {confirming ? (
        <ConfirmDialog
          opened
          title={t(`sessions.confirm.${confirming === 'closed' ? 'closeTitle' : 'cancelTitle'}`)}
          body={t(`sessions.confirm.${confirming === 'closed' ? 'closeBody' : 'cancelBody'}`, {
            when,
          })}
          confirmLabel={label(confirming)}
          danger
          loading={setStatus.isPending}
          error={setStatus.error}
          onConfirm={() =>
            setStatus.mutate(
              { sessionId: session.id, status: confirming },
              { onSuccess: () => setConfirming(null) },
            )
          }
          onClose={() => {
            setConfirming(null);
            setStatus.reset();
          }}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          opened
          title={t('sessions.confirm.deleteTitle')}
          body={t('sessions.confirm.deleteBody', { when })}
          confirmLabel={t('sessions.actions.delete')}
          danger
          loading={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate({ sessionId: session.id, scope }, { onSuccess: () => setDeleting(false) })
          }
          onClose={() => {
            setDeleting(false);
            setScope('this');
            remove.reset();
          }}
        >
          {session.seriesId ? <ScopeChoice value={scope} onChange={setScope} /> : null}
        </ConfirmDialog>
      ) : null}

      <Modal
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={editing}
        onClose={() => setEditing(false)}
        title={t('sessions.edit.title')}
        size="lg"
        fullScreen={narrow}
      >
        {editing ? <EditSessionForm session={session} onDone={() => setEditing(false)} /> : null}
      </Modal>
    </Group>
  );
}
