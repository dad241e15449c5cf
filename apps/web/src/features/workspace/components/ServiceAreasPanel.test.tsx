import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { ServiceAreasPanel } from './ServiceAreasPanel.tsx';

const queueId = '5c2e8b1a-3d4f-4a6b-9c8d-1e2f3a4b5c11';

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let fetchMock: ReturnType<typeof vi.fn>;
const created = () =>
  fetchMock.mock.calls
    .filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

beforeEach(() => {
  fetchMock = vi.fn((_url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body));
      return Promise.resolve(
        json({
          data: {
            id: '5c2e8b1a-3d4f-4a6b-9c8d-1e2f3a4b5c12',
            queueId,
            address: '',
            city: '',
            latitude: null,
            longitude: null,
            notes: '',
            createdAt: '2026-03-01T08:00:00.000Z',
            updatedAt: '2026-03-01T08:00:00.000Z',
            ...body,
          },
        }),
      );
    }
    return Promise.resolve(json({ data: [] }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openNewArea(country: string) {
  const user = userEvent.setup();
  renderWithProviders(<ServiceAreasPanel queueId={queueId} canManage country={country} />);
  await user.click(await screen.findByRole('button', { name: 'Add area' }));
  await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Riverside');
  return user;
}

describe('ServiceAreasPanel phone', { timeout: 30_000 }, () => {
  it("reads a national number in the company's country and sends it in E.164", async () => {
    const user = await openNewArea('US');
    await user.type(screen.getByLabelText('Phone'), '(201) 555-0123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(created()).toHaveLength(1));
    expect(created()[0]).toMatchObject({ name: 'Riverside', phone: '+12015550123' });
  });

  it('shows the message on the field for a number the rule refuses, and sends nothing', async () => {
    const user = await openNewArea('GB');
    const phone = screen.getByLabelText('Phone');
    await user.type(phone, '0123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(/This is not a valid phone number\. Check the digits/),
    ).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(created()).toHaveLength(0);
  });
});
