import { SetNewPasswordDialog } from '../../features/auth/components/SetNewPasswordDialog.tsx';
import { Component as HomePage } from '../../features/marketing/pages/HomePage.tsx';

/**
 * `/updatepassword` and `/update-password` (spec §2): the home page, plus the set-new-password
 * dialog once the reset link's PASSWORD_RECOVERY event has fired.
 */
export function Component() {
  return (
    <>
      <HomePage />
      <SetNewPasswordDialog />
    </>
  );
}
