import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { useEndUserSessions, useResetSecondFactors, type User } from './users-api.ts';

/** A System Administrator signs a user out everywhere (a lost laptop). */
export function EndSessionsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <ConfirmDialog
      target={user}
      action={useEndUserSessions()}
      title="End this user’s sessions?"
      failureTitle="The sessions were not ended"
      confirmLabel="End sessions"
      warning="They are signed out on every browser at once."
      done={(target) => ['Sessions ended', `${target.email} must sign in again.`]}
      onClose={onClose}
    >
      {(target) => (
        <>
          <strong>{target.name}</strong> ({target.email}) is signed out everywhere and can sign in again as usual.
        </>
      )}
    </ConfirmDialog>
  );
}

/** A lost phone or passkey: the user's factors and recovery codes go, so they can add new ones. */
export function ResetSecondFactorsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <ConfirmDialog
      target={user}
      action={useResetSecondFactors()}
      title="Reset this user’s second factors?"
      failureTitle="The second factors were not reset"
      confirmLabel="Reset second factors"
      warning="Their passkeys, authenticator app and recovery codes stop working, and their sessions end."
      done={(target) => ['Second factors reset', `${target.email} signs in with the password and adds new ones.`]}
      onClose={onClose}
    >
      {(target) => (
        <>
          Only for a lost device: make sure it is really <strong>{target.name}</strong> ({target.email}) asking. They
          sign in with their password alone until they add a new second factor.
        </>
      )}
    </ConfirmDialog>
  );
}
