import { Group, Text } from '@mantine/core';

export interface LogoMarkProps {
  /** The wordmark: the brand's name in the page's language. */
  name: string;
  /** `inverse` for dark backgrounds (the footer, the display board). */
  variant?: 'default' | 'inverse';
}

/** The mark (people in line, moving to "next") and the wordmark; decorative, the link names it. */
export function LogoMark({ name, variant = 'default' }: LogoMarkProps) {
  const inverse = variant === 'inverse';
  return (
    <Group gap={8} wrap="nowrap" aria-hidden>
      <svg width="32" height="32" viewBox="0 0 32 32" focusable="false" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={inverse ? '#ffffff' : '#166b7e'} />
        <circle cx="8.5" cy="16" r="2.5" fill={inverse ? '#4ea4b8' : '#76b9c9'} />
        <circle cx="15" cy="16" r="2.5" fill={inverse ? '#1f7f95' : '#d2e9ee'} />
        <path
          d="M20.5 10l6 6-6 6"
          fill="none"
          stroke={inverse ? '#0d5869' : '#ffffff'}
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <Text
        component="span"
        fw={800}
        fz={22}
        lts={-0.5}
        c={inverse ? 'white' : 'brand.8'}
        style={{ lineHeight: 1 }}
      >
        {name}
      </Text>
    </Group>
  );
}
