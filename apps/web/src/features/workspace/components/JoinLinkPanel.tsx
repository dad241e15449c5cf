import {
  ActionIcon,
  Button,
  CopyButton,
  Group,
  Image,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import type { Queue } from '@upnext/contract/queues';
import { useTranslation } from 'react-i18next';
import { joinUrl, useQrSvg } from '../../../lib/qr.ts';

function download(svg: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser a moment to start the download before the URL is released.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Join link with a copy button, and its QR code to print or download. */
export function JoinLinkPanel({ queue }: { queue: Queue }) {
  const { t } = useTranslation('workspace');
  const url = joinUrl(queue.joinCode);
  const svg = useQrSvg(url);
  const slug =
    queue.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'queue';

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        {t('joinLink.intro')}
      </Text>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={t('joinLink.link')}
          value={url}
          readOnly
          style={{ flex: 1, minWidth: 0 }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={url} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('joinLink.copied') : t('joinLink.copy')} withArrow>
              <ActionIcon
                size={36}
                variant={copied ? 'filled' : 'default'}
                color={copied ? 'teal' : undefined}
                onClick={copy}
                aria-label={copied ? t('joinLink.copied') : t('joinLink.copy')}
              >
                {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Text size="sm">
        {t('joinLink.code')}{' '}
        <Text span fw={700} ff="monospace">
          {queue.joinCode}
        </Text>
      </Text>
      <Paper withBorder radius="md" p="md" maw={280} mx={{ base: 'auto', xs: 0 }}>
        {svg ? (
          <Image
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
            alt={t('joinLink.qrAlt', { name: queue.name })}
            w="100%"
            maw={240}
            mx="auto"
            data-testid="join-qr"
          />
        ) : (
          <Skeleton height={240} width={240} mx="auto" aria-label={t('state.loading')} />
        )}
      </Paper>
      <Group>
        <Button
          variant="default"
          leftSection={<IconDownload size={18} aria-hidden />}
          disabled={!svg}
          onClick={() => {
            if (svg) download(svg, `${slug}-qr.svg`);
          }}
        >
          {t('joinLink.download')}
        </Button>
      </Group>
    </Stack>
  );
}
