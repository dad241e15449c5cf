/** The home title already carries the brand; every other page gets "<page> · UpNext". */
export function pageTitle(key: string, t: (key: string, values?: { page: string }) => string) {
  return key === 'home' ? t('titles.home') : t('titles.template', { page: t(`titles.${key}`) });
}
