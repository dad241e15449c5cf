import { Box } from '@mantine/core';
import { useParams } from 'react-router';
import { SandboxCheckout } from '../../features/checkout/components/SandboxCheckout.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';

/**
 * `/sandbox/checkout/{checkoutId}`: the built-in sandbox card checkout. Public and without the
 * site's chrome, as a provider's checkout page would be: the payer sees only the checkout.
 */
export function Component() {
  const { checkoutId = '' } = useParams<'checkoutId'>();
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>
      <SandboxCheckout checkoutId={checkoutId} />
    </Box>
  );
}
