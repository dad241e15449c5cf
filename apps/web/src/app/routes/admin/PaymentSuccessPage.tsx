import { Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useLocation, useSearchParams } from 'react-router';
import { SignInDialog } from '../../../features/auth/components/SignInDialog.tsx';
import { PlanPaymentResult } from '../../../features/billing/components/PlanPaymentResult.tsx';

/**
 * `/admin/payment-success?paymentId=` (spec §2): where the checkout sends a company back after
 * paying its plan. Not guarded (the browser may come back without a session): a signed-out
 * owner is asked to sign in and stays here. The outcome is read from the server, never the URL.
 */
export function Component() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const [signInOpened, signIn] = useDisclosure(false);
  return (
    <Container size="sm" py={{ base: 32, sm: 56 }}>
      <PlanPaymentResult
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
