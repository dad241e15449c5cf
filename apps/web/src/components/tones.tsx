import { Alert, type AlertProps, Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type Tone = 'brand' | 'teal' | 'blue' | 'yellow' | 'red' | 'gray' | 'grape';

/**
 * Text colour on a tone's light tint with at least 4.5:1 contrast. Mantine's light variant
 * writes in the tone's shade 6-7, which is below AA on the tint for most colours.
 */
const ink: Record<Tone, string> = {
  brand: 'brand.9',
  teal: 'brand.9',
  blue: 'blue.9',
  yellow: 'gray.9',
  red: 'red.9',
  gray: 'gray.8',
  grape: 'grape.9',
};

/** A light badge whose text stays readable (AA) on its tint. */
export function Tag({
  tone,
  ...props
}: Omit<BadgeProps, 'color' | 'variant'> & { tone: Tone; children?: ReactNode }) {
  return <Badge variant="light" color={tone} c={ink[tone]} {...props} />;
}

/** A light alert whose title and icon stay readable (AA) on its tint. */
export function Notice({ tone, ...props }: Omit<AlertProps, 'color' | 'variant'> & { tone: Tone }) {
  return <Alert variant="light" color={tone} c={ink[tone]} {...props} />;
}

/**
 * A badge for each status of a thing: one colour per status (`tones`), its text from i18n
 * (`<labels>.<status>`), and the one status that needs attention (`loud`) filled to stand out.
 */
export function statusBadge<Status extends string>(
  tones: Record<Status, Tone>,
  labels: string,
  loud: Status,
) {
  return function StatusBadge({
    status,
    ...props
  }: Omit<BadgeProps, 'color' | 'variant' | 'children'> & { status: Status }) {
    const { t } = useTranslation();
    const label = t(`${labels}.${status as string}`);
    if (status === loud) {
      return (
        <Badge color={`${tones[status]}.9`} variant="filled" {...props}>
          {label}
        </Badge>
      );
    }
    return (
      <Tag tone={tones[status]} {...props}>
        {label}
      </Tag>
    );
  };
}
