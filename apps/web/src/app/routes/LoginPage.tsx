import { LoginCallback } from '../../features/auth/components/LoginCallback.tsx';

/** The OAuth and email-link callback (spec §2): completes the sign-in, then goes on. */
export function Component() {
  return <LoginCallback />;
}
