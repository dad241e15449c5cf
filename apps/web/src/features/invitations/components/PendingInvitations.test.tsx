import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invitation } from '@upnext/contract/users';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuthSession } from '../../../lib/auth-session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { PendingInvitations } from './PendingInvitations.tsx';

const harbour: Invitation = {
  companyId: '7d1f6a52-55a8-4c1e-8a0e-5d8f3f0b2a01',
  companyName: 'Harbour Clinic',
  role: 'staff',
  invitedAt: '2026-03-01T08:00:00.000Z',
};
const hill: Invitation = {
  companyId: '7d1f6a52-55a8-4c1e-8a0e-5d8f3f0b2a02',
  companyName: 'Hill Surgery',
  role: 'admin',
  invitedAt: '2026-03-02T08:00:00.000Z',
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let pending: Invitation[];
let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  pending = [harbour, hill];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/user/invitations') return json({ data: pending });
    const answer = /^\/api\/user\/invitations\/([^/]+)\/(accept|decline)$/.exec(url);
    if (answer && init?.method === 'POST') {
      const found = pending.find((invitation) => invitation.companyId === answer[1]);
      if (!found) {
        return json(
          { error: { code: 'invitation_not_found', message: 'There is no pending invitation.' } },
          404,
        );
      }
      pending = pending.filter((invitation) => invitation !== found);
      return json({ data: answer[2] === 'decline' ? pending : { companies: [] } });
    }
    return json({ error: { code: 'not_found', message: `No stub for ${url}` } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  setAuthSession({ accessToken: 'access-token', user: { id: 'u1', email: 'nina@example.com' } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setAuthSession(null);
});

describe('PendingInvitations', { timeout: 30_000 }, () => {
  it('lists each invitation with its company and role, and accepts or declines it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PendingInvitations />);
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('Harbour Clinic')).toBeInTheDocument();
    expect(screen.getByText('Invited as Staff')).toBeInTheDocument();
    expect(screen.getByText('Invited as Admin')).toBeInTheDocument();

    await user.click(
      screen.getByRole('button', { name: 'Accept the invitation from Harbour Clinic' }),
    );
    expect(await screen.findByText('You joined Harbour Clinic.')).toBeInTheDocument();
    const accept = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/accept'));
    expect(accept?.[0]).toBe(`/api/user/invitations/${harbour.companyId}/accept`);
    expect(accept?.[1]?.method).toBe('POST');
    // The list refetches: only the other invitation is left.
    await screen.findByText('Hill Surgery');
    expect(await screen.findAllByRole('listitem')).toHaveLength(1);

    await user.click(
      screen.getByRole('button', { name: 'Decline the invitation from Hill Surgery' }),
    );
    expect(
      await screen.findByText('You declined the invitation from Hill Surgery.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('says so when an invitation was withdrawn meanwhile', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PendingInvitations />);
    await screen.findByText('Harbour Clinic');
    pending = [hill];
    await user.click(
      screen.getByRole('button', { name: 'Accept the invitation from Harbour Clinic' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation was withdrawn or already answered.',
    );
  });

  it('shows nothing without invitations', async () => {
    pending = [];
    const { container } = renderWithProviders(<PendingInvitations />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.querySelector('section')).toBeNull();
  });
});
