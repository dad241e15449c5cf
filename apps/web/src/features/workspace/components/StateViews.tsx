import { LoadFailed } from '../../../components/StateViews.tsx';
import { errorText } from './errorText.ts';

/** A failed load, in this feature's words, with a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return <LoadFailed message={errorText(error)} {...(onRetry ? { onRetry } : {})} />;
}
