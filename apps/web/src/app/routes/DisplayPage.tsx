import { Box, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import classes from './DisplayPage.module.css';

/** The public board for a waiting room's screen: full window, readable across a room. */
export function Component() {
  const { t } = useTranslation();
  const { sessionId = '' } = useParams<'sessionId'>();
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.board}>
      <Box className={classes.logo}>
        <Logo variant="inverse" />
      </Box>
      <Center h="100%">
        <Stack align="center" gap="lg" px="md" ta="center">
          <Title order={1} className={classes.heading}>
            {t('display.title')}
          </Title>
          <Text className={classes.number} aria-hidden>
            —
          </Text>
          <Text className={classes.status}>{t('display.waiting')}</Text>
          <Text className={classes.hint} maw={640}>
            {t('display.hint', { sessionId })}
          </Text>
        </Stack>
      </Center>
    </Box>
  );
}
