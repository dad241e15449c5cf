import { screen, within } from '@testing-library/react';
import { planIds, plans } from '@upnext/contract/plans';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { Component as AboutPage } from './pages/AboutPage.tsx';
import { Component as HomePage } from './pages/HomePage.tsx';
import { Component as NotFoundPage } from './pages/NotFoundPage.tsx';
import { Component as PricingPage } from './pages/PricingPage.tsx';
import { Component as PrivacyPolicyPage } from './pages/PrivacyPolicyPage.tsx';
import { Component as ServicesPage } from './pages/ServicesPage.tsx';
import { Component as TermsPage } from './pages/TermsPage.tsx';

/** The page's text without the <style> elements Mantine injects. */
function visibleText(container: HTMLElement): string {
  const clone = container.cloneNode(true) as HTMLElement;
  for (const style of clone.querySelectorAll('style')) style.remove();
  return clone.textContent ?? '';
}

function renderPage(Page: ComponentType, path = '/') {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <Page />
    </MemoryRouter>,
  );
}

const pages: [string, ComponentType][] = [
  ['home', HomePage],
  ['pricing', PricingPage],
  ['services', ServicesPage],
  ['about', AboutPage],
  ['privacy', PrivacyPolicyPage],
  ['terms', TermsPage],
  ['not found', NotFoundPage],
];

describe('marketing pages', () => {
  it.each(pages)('%s has one h1, no skipped heading level and no untranslated text', (_, Page) => {
    const { container } = renderPage(Page);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const levels = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) =>
      Number(h.tagName[1]),
    );
    levels.forEach((level, i) => {
      if (i > 0) expect(level - (levels[i - 1] ?? 1)).toBeLessThanOrEqual(1);
    });
    const text = visibleText(container);
    expect(text).not.toMatch(
      /\{\{|\}\}|\b(home|pricing|services|about|privacy|terms|common)\.[a-z]+/,
    );
    expect(document.title).toContain('UpNext');
  });

  it.each(pages)('%s hides its decorative icons from assistive technology', (_, Page) => {
    const { container } = renderPage(Page);
    for (const svg of container.querySelectorAll('svg.tabler-icon')) {
      expect(svg.closest('[aria-hidden="true"]')).not.toBeNull();
    }
  });
});

describe('pricing page', () => {
  it('shows the three plans with their monthly prices', () => {
    renderPage(PricingPage);
    for (const id of planIds) {
      const name = { free: 'Free', pro: 'Pro', business: 'Business' }[id];
      const card = screen.getByRole('article', { name });
      expect(within(card).getByText(`€${plans[id].monthlyPrice}`)).toBeInTheDocument();
    }
  });

  it('has an accessible comparison table whose numbers match the plans', () => {
    renderPage(PricingPage);
    const table = screen.getByRole('table', { name: /Limits and features of the Free, Pro/ });
    const head = table.querySelector('thead') as HTMLElement;
    const columns = within(head).getAllByRole('columnheader');
    expect(columns.map((th) => th.getAttribute('scope'))).toEqual(['col', 'col', 'col', 'col']);
    expect(columns[2]).toHaveTextContent('Pro');

    const tokensRow = within(table).getByRole('rowheader', {
      name: 'Tokens and bookings per month',
    }).parentElement as HTMLElement;
    const cells = within(tokensRow)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells).toEqual(planIds.map((id) => plans[id].tokensPerMonth.toLocaleString('en')));
  });

  it('answers questions in an accordion, quoting the same limits', () => {
    renderPage(PricingPage);
    const question = screen.getByRole('button', { name: 'Is the Free plan really free?' });
    expect(question).toBeInTheDocument();
    expect(
      screen.getByText(
        new RegExp(`${plans.free.staffSeats} staff seats and ${plans.free.tokensPerMonth} tokens`),
      ),
    ).toBeInTheDocument();
  });
});

describe('legal pages', () => {
  it.each([
    ['privacy', PrivacyPolicyPage],
    ['terms', TermsPage],
  ] as const)('%s has a dated table of contents linking to every section', (_, Page) => {
    const { container } = renderPage(Page);
    expect(screen.getByText('Last updated: 22 November 2026')).toBeInTheDocument();
    const toc = screen.getByRole('navigation', { name: 'On this page' });
    const links = within(toc).getAllByRole('link');
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) {
      const id = link.getAttribute('href')?.slice(1) ?? '';
      expect(container.querySelector(`section[id="${id}"]`)).not.toBeNull();
    }
  });
});

describe('not-found page', () => {
  it('explains what happened and links home, to join and to contact', () => {
    renderPage(NotFoundPage, '/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Join a queue' })).toHaveAttribute('href', '/join');
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      '/aboutus#contact',
    );
  });
});

describe('in-page link targets', () => {
  it.each([
    ['contact', AboutPage],
    ['industries', ServicesPage],
    ['integrations', ServicesPage],
  ] as const)('#%s exists for the links that point to it', (id, Page) => {
    const { container } = renderPage(Page);
    expect(container.querySelector(`[id="${id}"]`)).not.toBeNull();
  });
});
