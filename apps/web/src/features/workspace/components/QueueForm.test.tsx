import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { QueueForm } from './QueueForm.tsx';

const companyId = '5b0f4b4e-2f57-4a52-9d64-3b2a4f3f7d11';

function renderForm() {
  const onSubmit = vi.fn();
  renderWithProviders(
    <QueueForm companyId={companyId} defaultCurrency="EUR" onSubmit={onSubmit} />,
  );
  return { onSubmit, user: userEvent.setup() };
}

// Typing through user-event is slow on a loaded machine.
describe('QueueForm', { timeout: 30_000 }, () => {
  it('refuses an empty name with a readable message and sends nothing', async () => {
    const { onSubmit, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows the contract's own rule for a token prefix it does not accept", async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Reception');
    const prefix = screen.getByRole('textbox', { name: /Token prefix/ });
    await user.clear(prefix);
    await user.type(prefix, 'a-1');
    // Typed in lower case, shown in capitals; the dash is still refused by the shared schema.
    expect(prefix).toHaveValue('A-1');
    await user.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(
      await screen.findByText('Up to 4 capital letters or digits, e.g. "A"'),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks for a price when the queue is paid', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Clinic');
    await user.click(screen.getByRole('switch', { name: /Visitors pay to join/ }));
    await user.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(await screen.findByText('Enter the price of a token')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the body the API takes: price in minor units with its currency', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), '  Passport office ');
    const prefix = screen.getByRole('textbox', { name: /Token prefix/ });
    await user.clear(prefix);
    await user.type(prefix, 'p');
    await user.click(screen.getByRole('switch', { name: /Visitors pay to join/ }));
    await user.type(screen.getByRole('textbox', { name: /^Price/ }), '12.5');
    await user.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Passport office',
      description: '',
      mode: 'walk_in',
      visibility: 'public',
      online: false,
      tokenPrefix: 'P',
      tokensPerVisitor: 1,
      turnApproachingThreshold: 3,
      priceMinor: 1250,
      currency: 'EUR',
      cancelNoticeMinutes: 0,
      refundPercent: 100,
      changeCutoffMinutes: 0,
      intakeQuestions: [],
    });
  });

  it('sends the cancellation notice in minutes and the refund share, and refuses a share over 100 %', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Clinic');
    await user.click(screen.getByRole('switch', { name: /Visitors pay to join/ }));
    await user.type(screen.getByRole('textbox', { name: /^Price/ }), '25');
    const notice = screen.getByRole('textbox', { name: /^Cancellation notice/ });
    await user.clear(notice);
    await user.type(notice, '24');
    await user.click(screen.getByLabelText('Unit', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Hours' }));
    const share = screen.getByRole('textbox', { name: /^Refund share/ });
    await user.clear(share);
    await user.type(share, '150');
    await user.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(await screen.findByText('At most 100')).toBeInTheDocument();
    expect(share).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(share);
    await user.type(share, '50');
    await user.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ cancelNoticeMinutes: 1440, refundPercent: 50, priceMinor: 2500 }),
    );
  });
});
