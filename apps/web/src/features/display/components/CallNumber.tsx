import type { CSSProperties } from 'react';
import classes from './boards.module.css';

/**
 * A called token in the largest type its box allows: sized by the box's width and the
 * label's length, so "ABCD-1234" stays on one line on a phone and a wall alike.
 */
export function CallNumber({
  label,
  size = 'board',
  testId,
}: {
  label: string;
  /** `board`: the session board's one number; `card`: a counter's on a branch board. */
  size?: 'board' | 'card';
  testId?: string;
}) {
  return (
    <span
      className={size === 'board' ? classes.number : classes.cardNumber}
      style={{ '--chars': label.length } as CSSProperties}
      data-testid={testId}
    >
      {label}
    </span>
  );
}
