import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The auth-js error message (or a validation message), announced to screen readers. */
export function AuthErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
      {message}
    </Alert>
  );
}
