import { Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useLocation, useSearchParams } from 'react-router';
import { SignInDialog } from '../../features/auth/components/SignInDialog.tsx';
import { PaymentResult } from '../../features/visit/components/PaymentResult.tsx';

/**
 * `/payment-success?paymentId=` (spec §2): where the checkout sends a visitor back. Public (the
 * browser may come back without a session); the payment is read for its payer, so a signed-out
 * visitor is asked to sign in and stays on this page.
 */
export function Component() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const [signInOpened, signIn] = useDisclosure(false);
  return (
    <Container size="sm" py={{ base: 32, sm: 56 }}>
      <PaymentResult
        paymentId={searchParams.get('paymentId')?.trim() || null}
        requestSignIn={signIn.open}
      />
      <SignInDialog
        opened={signInOpened}
        onClose={signIn.close}
        redirectTo={location.pathname + location.search}
      />
    </Container>
  );
}
