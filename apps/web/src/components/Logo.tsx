import { useTranslation } from 'react-i18next';
import { LogoMark, type LogoMarkProps } from './LogoMark.tsx';

/** The logo with the brand's name from the app's texts (`LogoMark` where there is no i18next). */
export function Logo({ variant = 'default' }: Pick<LogoMarkProps, 'variant'>) {
  const { t } = useTranslation();
  return <LogoMark name={t('brand.name')} variant={variant} />;
}
