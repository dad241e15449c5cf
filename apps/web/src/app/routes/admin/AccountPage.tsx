import { AccountSettings } from '../../../features/account/components/AccountSettings.tsx';
import { SetNewPasswordDialog } from '../../../features/auth/components/SetNewPasswordDialog.tsx';
import { PendingInvitations } from '../../../features/invitations/components/PendingInvitations.tsx';

/**
 * `/admin/account`; a staff invitation's link lands here: the invitee chooses a password and
 * answers their pending invitations.
 */
export function Component() {
  return (
    <>
      <AccountSettings notices={<PendingInvitations />} />
      <SetNewPasswordDialog />
    </>
  );
}
