import { Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { LazySignInDialog } from './LazySignInDialog.tsx';

/**
 * A page a checkout sends the payer back to (spec §2's two payment-success routes): public, since
 * the browser may come back without a session. It reads `?paymentId=` and owns the sign-in
 * dialog, so a signed-out payer signs in and stays on the page; `children` shows the outcome.
 */
export function PaymentReturn({
  children,
}: {
  children: (paymentId: string | null, requestSignIn: () => void) => ReactNode;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const [signInOpened, signIn] = useDisclosure(false);
  return (
    <Container size="sm" py={{ base: 32, sm: 56 }}>
      {children(searchParams.get('paymentId')?.trim() || null, signIn.open)}
      <LazySignInDialog
        opened={signInOpened}
        onClose={signIn.close}
        redirectTo={location.pathname + location.search}
      />
    </Container>
  );
}
