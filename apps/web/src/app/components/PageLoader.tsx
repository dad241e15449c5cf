import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './PageLoader.module.css';

/** Shown while the first page's code loads; it fades in late so fast loads never flash it. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" className={classes.root}>
      <Loader aria-label={t('loading')} />
    </Center>
  );
}
