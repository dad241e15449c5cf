import { notifications } from '@mantine/notifications';
import {
  type QueryClient,
  QueryClientProvider,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { ApiError } from './api-client.ts';
import { reportError } from './error-reporter.ts';
import { createQueryClient, notifyApiError, queryClient, withQueryClient } from './query-client.ts';

vi.mock('./error-reporter.ts', () => ({ reportError: vi.fn() }));

const slotFull = new ApiError({
  status: 409,
  code: 'slot_full',
  message: 'This slot is already full.',
  fromServer: true,
});

afterEach(() => {
  act(() => notifications.clean());
  vi.mocked(reportError).mockClear();
});

describe('API error notification', () => {
  it('shows the generic title with the server reason as a second line, and reports it', async () => {
    renderWithProviders(<div />);
    act(() => notifyApiError(slotFull));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong. Please try again.');
    expect(alert).toHaveTextContent('This slot is already full.');
    expect(reportError).toHaveBeenCalledWith(slotFull, { source: 'api' });
  });

  it('shows only the generic title when the server gave no reason', async () => {
    const offline = new ApiError({
      status: 0,
      code: 'network_error',
      message: 'The server could not be reached.',
      fromServer: false,
    });
    renderWithProviders(<div />);
    act(() => notifyApiError(offline));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong. Please try again.');
    expect(alert).not.toHaveTextContent('could not be reached');
  });

  it('quotes the request id of a server fault', async () => {
    const fault = new ApiError({
      status: 500,
      code: 'internal_error',
      message: 'An unexpected error occurred.',
      requestId: 'req-42',
      fromServer: true,
    });
    renderWithProviders(<div />);
    act(() => notifyApiError(fault));
    expect(await screen.findByRole('alert')).toHaveTextContent('Reference: req-42');
  });

  it('is what a failing query shows', async () => {
    function FailingQuery() {
      useQuery({ queryKey: ['slot'], queryFn: () => Promise.reject(slotFull) });
      return null;
    }
    renderWithProviders(<FailingQuery />, createQueryClient());
    expect(await screen.findByRole('alert')).toHaveTextContent('This slot is already full.');
    expect(reportError).toHaveBeenCalledWith(slotFull, { source: 'api' });
  });

  it('stays quiet (but reports) when the screen shows the failure itself', async () => {
    function InlineMutation() {
      const mutation = useMutation({
        mutationFn: () => Promise.reject(slotFull),
        meta: { errorShownInline: true },
      });
      useEffect(() => mutation.mutate(), [mutation.mutate]);
      return mutation.isError ? <p>inline</p> : null;
    }
    renderWithProviders(<InlineMutation />, createQueryClient());
    expect(await screen.findByText('inline')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(reportError).toHaveBeenCalledWith(slotFull, { source: 'api' });
  });
});

describe('withQueryClient', () => {
  function CacheOf({ seen }: { seen: (client: QueryClient) => void }) {
    seen(useQueryClient());
    return null;
  }

  it('gives the app’s cache where there is none (the light start)', () => {
    let client: QueryClient | undefined;
    render(withQueryClient(<CacheOf seen={(seen) => (client = seen)} />));
    expect(client).toBe(queryClient);
  });

  it('keeps the cache already there (the app, a test)', () => {
    const own = createQueryClient();
    let client: QueryClient | undefined;
    render(
      <QueryClientProvider client={own}>
        {withQueryClient(<CacheOf seen={(seen) => (client = seen)} />)}
      </QueryClientProvider>,
    );
    expect(client).toBe(own);
  });
});
