import { Alert, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { hasSecondFactor, useSession } from '../session/session-api.ts';
import { LoadingRows, ProblemAlert } from '../shared/Feedback.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { TotpCard } from './TotpCard.tsx';
import { RecoveryCodesCard } from './RecoveryCodesCard.tsx';
import { RecoveryCodesDialog } from './RecoveryCodesDialog.tsx';
import { useSecurity } from './security-api.ts';
import { SessionsSection } from './SessionsSection.tsx';
import { SignInSettingsSection } from './SignInSettingsSection.tsx';
import { SsoSettingsSection } from '../sso/SsoSettingsSection.tsx';
import { ConnectedAppsSection } from '../oauth/ConnectedAppsSection.tsx';

/**
 * /backoffice/settings/security: one's own second factors, sessions, connected apps and password, for everyone
 * signed in; the organisation's sign-in rules for System Administrators. An enrolment-only session
 * sees this page alone, saying why.
 */
export function SecurityPage() {
  const session = useSession().data!;
  const security = useSecurity();
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  // Recovery codes are shown once: held here until the dialog closes, in no cache.
  const [codes, setCodes] = useState<string[] | null>(null);
  const isSystemAdministrator = session.user.roles.includes('system_administrator');
  const factors = security.data?.second_factors;

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Security</Title>
        <Text c="dark.4" mt={4}>
          How you sign in, and where you are signed in.
        </Text>
      </div>
      {session.enrolment_required && (
        <Alert
          role="note"
          color="yellow"
          variant="light"
          icon={<IconShieldLock aria-hidden />}
          title="Add a second factor to continue"
        >
          Your organisation requires a second factor for your account. Add a passkey or an authenticator app below; the
          rest of the back office opens as soon as you have one.
        </Alert>
      )}
      {security.isPending && <LoadingRows label="Loading your security settings" rows={4} height={56} />}
      {security.isError && (
        <ProblemAlert
          error={security.error}
          title="Your security settings could not be loaded"
          onRetry={() => void security.refetch()}
        />
      )}
      {factors && security.data && (
        <>
          <Stack gap="sm" component="section" aria-labelledby="factors-title">
            <Title order={2} size="h3" id="factors-title">
              Second factors
            </Title>
            <Text size="sm" c="dark.4">
              {hasSecondFactor(session)
                ? 'After your password, sign-in asks for one of these.'
                : 'Only your password protects this account now. Add a passkey or an authenticator app.'}
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <PasskeysCard passkeys={factors.passkeys} onRecoveryCodes={setCodes} />
              <TotpCard enrolled={factors.totp} onRecoveryCodes={setCodes} />
            </SimpleGrid>
            <RecoveryCodesCard
              left={factors.recovery_codes_left}
              hasFactor={factors.totp || factors.passkeys.length > 0}
              onRecoveryCodes={setCodes}
            />
          </Stack>
          <SessionsSection sessions={security.data.sessions} narrow={narrow} />
          {!session.enrolment_required && <ConnectedAppsSection scope="mine" narrow={narrow} />}
        </>
      )}
      <PasswordSection />
      {isSystemAdministrator && !session.enrolment_required && (
        <>
          <SignInSettingsSection />
          <SsoSettingsSection />
        </>
      )}
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
    </Stack>
  );
}
