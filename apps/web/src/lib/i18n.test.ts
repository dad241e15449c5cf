import { afterEach, describe, expect, it } from 'vitest';
import ar from '../locales/ar/marketing/home.json';
import { chooseLanguage, currentLanguage, i18n } from './i18n.ts';

describe('choosing a language', () => {
  afterEach(async () => {
    await chooseLanguage('en');
    localStorage.clear();
  });

  it('switches every loaded text, page parts included, and writes right to left in Arabic', async () => {
    // The test setup loaded every namespace and page part in English, as pages would.
    expect(i18n.t('marketing:home.hero.primaryCta')).toBe('Join a queue');
    await chooseLanguage('ar');
    expect(currentLanguage()).toBe('ar');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(i18n.t('nav.home')).toBe('الرئيسية');
    expect(i18n.t('marketing:home.hero.primaryCta')).toBe(ar.home.hero.primaryCta);
    expect(i18n.t('visit:join.waiting', { count: 2 })).toBe('شخصان في الانتظار');
    expect(localStorage.getItem('upnext.language')).toBe('ar');
    // For the server, which sends its English prerendered pages only to English visitors.
    expect(document.cookie).toContain('upnext.language=ar');

    await chooseLanguage('fr');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(i18n.t('visit:join.waiting', { count: 0 })).toBe('0 personne en attente');
    expect(i18n.t('workspace:sessions.countOn', { count: 0, day: 'lun.' })).toBe(
      'Aucune session le lun.',
    );
  });
});
