import { AccountSettings } from '../../../features/account/components/AccountSettings.tsx';
import { SetNewPasswordDialog } from '../../../features/auth/components/SetNewPasswordDialog.tsx';

/** `/admin/account`; a staff invitation's link lands here, and the invitee chooses a password. */
export function Component() {
  return (
    <>
      <AccountSettings />
      <SetNewPasswordDialog />
    </>
  );
}
