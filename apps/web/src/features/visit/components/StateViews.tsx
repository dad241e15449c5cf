import { LoadFailed } from '../../../components/StateViews.tsx';
import { visitErrorText } from './visitError.ts';

/** A failed load, in this feature's words, with a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return <LoadFailed message={visitErrorText(error)} {...(onRetry ? { onRetry } : {})} />;
}
