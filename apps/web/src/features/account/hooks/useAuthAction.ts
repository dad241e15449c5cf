import { useState } from 'react';

/** Busy flag and auth-js error message around one account action. */
export function useAuthAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<{ error: Error | null } | undefined>) => {
    setBusy(true);
    setError(null);
    try {
      const result = await action();
      if (result?.error) {
        setError(result.error.message);
        return false;
      }
      return true;
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
