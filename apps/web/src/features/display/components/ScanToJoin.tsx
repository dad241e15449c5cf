import { Box, Text } from '@mantine/core';
import { joinUrl, useQrSvg } from '../../../lib/qr.ts';
import { useTranslation } from '../texts.ts';
import classes from './boards.module.css';

/** "Scan to join": the queue's join link as a QR code, with its code for typing in. */
export function ScanToJoin({ joinCode, queueName }: { joinCode: string; queueName: string }) {
  const { t } = useTranslation('display');
  const svg = useQrSvg(joinUrl(joinCode));
  return (
    <Box className={classes.join}>
      <Box className={classes.qr}>
        {svg ? (
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
            alt={t('join.qrAlt', { name: queueName })}
            data-testid="board-join-qr"
          />
        ) : null}
      </Box>
      <Box miw={0}>
        <Text className={classes.joinTitle}>{t('join.title')}</Text>
        <Text className={classes.joinCode}>{t('join.code', { code: joinCode })}</Text>
      </Box>
    </Box>
  );
}
