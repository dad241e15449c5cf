import { NativeSelect, rem } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { isLanguage, languageCodes, languages } from '@upnext/contract/languages';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../../lib/i18n.ts';

/**
 * The language switcher of the public and the admin headers: a native select (keyboard, screen
 * readers and phones know it), each language named in itself.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  return (
    <NativeSelect
      aria-label={t('language.label')}
      size="xs"
      w={rem(116)}
      leftSection={<IconLanguage size={16} aria-hidden />}
      value={currentLanguage()}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (isLanguage(value)) void chooseLanguage(value);
      }}
    >
      {languageCodes.map((code) => (
        <option key={code} value={code} lang={code}>
          {languages[code].name}
        </option>
      ))}
    </NativeSelect>
  );
}
