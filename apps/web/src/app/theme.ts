import {
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  rem,
} from '@mantine/core';

/**
 * UpNext's palette: a calm deep teal (trust, health, finance) on cool slate neutrals.
 * Contrast against white, measured with the WCAG formula: brand-7 6.1:1 (filled buttons,
 * links), brand-6 4.6:1, gray-6 5.4:1 (dimmed text), gray-7 7.4:1.
 */
const brand: MantineColorsTuple = [
  '#e8f5f7',
  '#d2e9ee',
  '#a6d2dc',
  '#76b9c9',
  '#4ea4b8',
  '#3597ad',
  '#1f7f95',
  '#166b7e',
  '#0d5869',
  '#044555',
];

const gray: MantineColorsTuple = [
  '#f7f9fa',
  '#eef2f4',
  '#e1e7eb',
  '#cdd6dc',
  '#a9b5be',
  '#8593a0',
  '#5e6c78',
  '#4a5762',
  '#36424c',
  '#1f2a32',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand, gray },
  black: '#14232b',
  white: '#ffffff',
  autoContrast: true,
  focusRing: 'auto',
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '700',
    sizes: {
      h1: { fontSize: rem(40), lineHeight: '1.15' },
      h2: { fontSize: rem(30), lineHeight: '1.2' },
      h3: { fontSize: rem(22), lineHeight: '1.3' },
    },
  },
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Container: { defaultProps: { size: 'lg' } },
    Modal: { defaultProps: { radius: 'lg', centered: true } },
    Notification: { defaultProps: { radius: 'md' } },
  },
});

/** Mantine's default error red (red-6) is 3.3:1 on white; red-9 keeps error text readable (5.5:1). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
