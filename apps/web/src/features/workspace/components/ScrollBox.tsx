import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

interface ScrollBoxProps {
  /** Names the region for screen readers; keyboard users reach it with Tab to scroll it. */
  label: string;
  maxHeight?: number;
  minWidth?: number;
  children: ReactNode;
}

/** A scrollable area that keyboard users can focus and scroll (WCAG 2.1.1). */
export function ScrollBox({ label, maxHeight, minWidth, children }: ScrollBoxProps) {
  return (
    <Box tabIndex={0} role="region" aria-label={label} style={{ maxHeight, overflow: 'auto' }}>
      <Box miw={minWidth}>{children}</Box>
    </Box>
  );
}
