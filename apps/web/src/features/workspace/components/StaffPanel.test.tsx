import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompanyUser } from '@upnext/contract/companies';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { StaffPanel } from './StaffPanel.tsx';

const companyId = '7d1f6a52-55a8-4c1e-8a0e-5d8f3f0b2a01';
const owner: CompanyUser = {
  id: '7d1f6a52-55a8-4c1e-8a0e-5d8f3f0b2a02',
  companyId,
  userId: '7d1f6a52-55a8-4c1e-8a0e-5d8f3f0b2a03',
  email: 'owner@harbour.example',
  displayName: 'Olivia Owner',
  avatarUrl: null,
  role: 'owner',
  status: 'active',
  invitedBy: null,
  createdAt: '2026-03-01T08:00:00.000Z',
  updatedAt: '2026-03-01T08:00:00.000Z',
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (init?.method === 'PATCH') {
      return Promise.resolve(
        json(
          {
            error: {
              code: 'last_owner',
              message: 'A company needs at least one active owner. Make someone else owner first.',
            },
          },
          409,
        ),
      );
    }
    return Promise.resolve(json({ data: url.endsWith('/users') ? [owner] : null }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('StaffPanel', { timeout: 30_000 }, () => {
  it("asks before changing a role and shows the server's reason when the last owner is protected", async () => {
    const user = userEvent.setup();
    renderWithProviders(<StaffPanel companyId={companyId} canManage callerRole="owner" />);
    const row = await screen.findByRole('row', { name: /Olivia Owner/ });
    expect(within(row).getByText('Active')).toBeInTheDocument();

    await user.click(within(row).getByLabelText('Role of Olivia Owner', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Staff' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the role?' });
    await user.click(within(dialog).getByRole('button', { name: 'Change role' }));

    expect(
      await within(dialog).findByText(
        'A company needs at least one active owner. Make someone else owner first.',
      ),
    ).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(patch?.[0]).toBe(`/api/company/${companyId}/users/${owner.userId}`);
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ role: 'staff' });
  });
});
