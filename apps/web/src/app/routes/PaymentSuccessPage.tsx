import { PaymentResult } from '../../features/visit/components/PaymentResult.tsx';
import { PaymentReturn } from '../components/PaymentReturn.tsx';

/** `/payment-success?paymentId=`: where the checkout sends a visitor back; the payment is read for its payer. */
export function Component() {
  return (
    <PaymentReturn>
      {(paymentId, requestSignIn) => (
        <PaymentResult paymentId={paymentId} requestSignIn={requestSignIn} />
      )}
    </PaymentReturn>
  );
}
