import { Button, Menu } from '@mantine/core';
import { IconDeviceTv, IconExternalLink, IconLayoutGrid } from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';

interface BoardLinksProps {
  sessionId: string;
  queueId: string;
  queueName: string;
  /** Names the session for screen readers where several are listed. */
  when?: string;
  size?: 'xs' | 'sm';
}

/**
 * Where staff open a waiting room's screens: the session's board and the queue's branch
 * board (every counter today), each in a new tab for the screen's browser.
 */
export function BoardLinks({ sessionId, queueId, queueName, when, size = 'sm' }: BoardLinksProps) {
  const { t } = useTranslation('entities');
  const newTab = { component: 'a', target: '_blank', rel: 'noopener' } as const;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size={size}
          leftSection={<IconDeviceTv size={16} aria-hidden />}
          aria-label={when ? t('session.boards.openFor', { when }) : undefined}
        >
          {t('session.boards.open')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          {...newTab}
          href={buildPath(spaRoutes.display, { sessionId })}
          leftSection={<IconDeviceTv size={16} aria-hidden />}
          rightSection={<IconExternalLink size={14} aria-label={t('session.boards.newTab')} />}
        >
          {t('session.boards.session')}
        </Menu.Item>
        <Menu.Item
          {...newTab}
          href={buildPath(spaRoutes.displayQueue, { queueId })}
          leftSection={<IconLayoutGrid size={16} aria-hidden />}
          rightSection={<IconExternalLink size={14} aria-label={t('session.boards.newTab')} />}
        >
          {t('session.boards.branch', { queue: queueName })}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
