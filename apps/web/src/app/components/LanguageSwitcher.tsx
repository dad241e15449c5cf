import { isLanguage, languageCodes, languages } from '@upnext/contract/languages';
import { useTranslation } from 'react-i18next';
import { chooseLanguage } from '../../lib/i18n.ts';
import { currentLanguage } from '../../lib/language.ts';
import classes from './LanguageSwitcher.module.css';

/**
 * The language switcher of the public and the admin headers: a native select (keyboard, screen
 * readers and phones know it; and it adds no Mantine input to the entry), each language named
 * in itself.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  return (
    <select
      aria-label={t('language.label')}
      className={classes.select}
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
    </select>
  );
}
