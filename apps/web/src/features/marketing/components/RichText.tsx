import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * Renders a translated string with two inline marks, so long copy can stay in the locale
 * files: `**strong**` and `[label](href)`. Paths of the single-page app become router links;
 * `mailto:`, `https:` and server paths such as `/api/docs` stay ordinary links.
 */
const inlinePattern = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

function isSpaPath(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//') && !/^\/(api|auth|wss)(\/|$)/.test(href);
}

function InlineLink({ href, children }: { href: string; children: ReactNode }) {
  if (isSpaPath(href)) {
    return (
      <Anchor component={Link} to={href} inherit underline="always">
        {children}
      </Anchor>
    );
  }
  return (
    <Anchor href={href} inherit underline="always">
      {children}
    </Anchor>
  );
}

export function RichText({ text }: { text: string }) {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    const [whole, strong, label, href] = match;
    const index = match.index;
    if (index > last) nodes.push(text.slice(last, index));
    if (strong !== undefined) {
      nodes.push(<strong key={index}>{strong}</strong>);
    } else if (label !== undefined && href !== undefined) {
      nodes.push(
        <InlineLink key={index} href={href}>
          {label}
        </InlineLink>,
      );
    }
    last = index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return <>{nodes}</>;
}
