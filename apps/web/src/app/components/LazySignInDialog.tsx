import { type ComponentProps, lazy } from 'react';
import { withNamespaces } from '../../lib/i18n.ts';
import { OnceOpened } from './OnceOpened.tsx';

const SignInDialog = lazy(
  withNamespaces(
    () =>
      import('../../features/auth/components/SignInDialog.tsx').then((module) => ({
        default: module.SignInDialog,
      })),
    'auth',
  ),
);

/** The sign-in dialog, downloaded with the auth client the first time it opens. */
export function LazySignInDialog(props: ComponentProps<typeof SignInDialog>) {
  return (
    <OnceOpened opened={props.opened}>
      <SignInDialog {...props} />
    </OnceOpened>
  );
}
