import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import arCommon from '../locales/ar/common.json';
import arMarketing from '../locales/ar/marketing/home.json';
import enMarketing from '../locales/en/marketing/home.json';
import {
  chooseLanguage,
  currentLanguage,
  i18n,
  i18nReady,
  loadedTexts,
  withNamespaces,
} from './i18n.ts';
import { useTranslation } from './react-i18next.ts';

function Heading() {
  const { t, i18n: texts } = useTranslation('marketing');
  return (
    <h1 lang={texts.language}>
      {t('home.hero.title')} · {t('common:nav.home')}
    </h1>
  );
}

describe('the light start’s texts', () => {
  it('loads a page’s namespaces and parts, and switches the open page’s language at once', async () => {
    await i18nReady;
    const load = withNamespaces(async () => 'the page', 'marketing', 'marketing/home');
    await expect(load()).resolves.toBe('the page');
    render(<Heading />);
    const heading = screen.getByRole('heading');
    expect(heading).toHaveTextContent(`${enMarketing.home.hero.title} · Home`);

    await act(() => chooseLanguage('ar'));
    expect(heading).toHaveTextContent(`${arMarketing.home.hero.title} · ${arCommon.nav.home}`);
    expect(heading).toHaveAttribute('lang', 'ar');
    expect(currentLanguage()).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(Object.keys(loadedTexts().namespaces).sort()).toEqual(['common', 'marketing']);
    expect(i18n.language).toBe('ar');
    expect(i18n.t('errors.generic')).toBe(arCommon.errors.generic);
  });
});
