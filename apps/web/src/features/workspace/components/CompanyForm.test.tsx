import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Company } from '@upnext/contract/companies';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { CompanyForm } from './CompanyForm.tsx';

const company: Company = {
  id: '5c2e8b1a-3d4f-4a6b-9c8d-1e2f3a4b5c01',
  name: 'Harbour Clinic',
  slug: 'harbour-clinic',
  timezone: 'Europe/Paris',
  country: 'FR',
  currency: 'EUR',
  logoUrl: null,
  contactEmail: null,
  contactPhone: null,
  plan: 'free',
  createdAt: '2026-03-01T08:00:00.000Z',
  updatedAt: '2026-03-01T08:00:00.000Z',
};

function renderForm() {
  const onSubmit = vi.fn();
  renderWithProviders(<CompanyForm company={company} submitLabel="Save" onSubmit={onSubmit} />);
  return { onSubmit, user: userEvent.setup() };
}

describe('CompanyForm contact phone', { timeout: 30_000 }, () => {
  it("reads a national number in the company's country and sends it in E.164", async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByLabelText('Contact phone'), '06 12 34 56 78');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ contactPhone: '+33612345678' });
  });

  it('refuses a number the contract rule rejects, on the field, and sends nothing', async () => {
    const { onSubmit, user } = renderForm();
    const phone = screen.getByLabelText('Contact phone');
    await user.type(phone, '12345');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(/This is not a valid phone number\. Check the digits/),
    ).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends null for an empty phone', async () => {
    const { onSubmit, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ contactPhone: null });
  });
});
