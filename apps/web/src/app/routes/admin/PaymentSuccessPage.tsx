import { PlanPaymentResult } from '../../../features/billing/components/PlanPaymentResult.tsx';
import { PaymentReturn } from '../../components/PaymentReturn.tsx';

/**
 * `/admin/payment-success?paymentId=`: where the checkout sends a company back after paying its
 * plan; not guarded (spec §2), the outcome read from the server, never the URL.
 */
export function Component() {
  return (
    <PaymentReturn>
      {(paymentId, requestSignIn) => (
        <PlanPaymentResult paymentId={paymentId} requestSignIn={requestSignIn} />
      )}
    </PaymentReturn>
  );
}
