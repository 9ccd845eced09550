import { Alert, Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { IconKey, IconLogout, IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { hasSecondFactor, useSignOut, type Session } from '../session/session-api.ts';
import { goToSignInAfterSignOut } from '../session/next.ts';
import { useFeedback } from './Feedback.tsx';
import { linkHandler } from './router.ts';

export type NavLink = { href: string; label: string };

type Props = { session: Session; current: string; links: NavLink[]; children: ReactNode };

/** Header (brand, tenant, navigation, who is signed in, sign-out) and the main landmark. */
export function Shell({ session, current, links, children }: Props) {
  const signOut = useSignOut();
  const notify = useFeedback();
  const home = '/backoffice/settings/api-keys';
  const onSignOut = () =>
    signOut.mutate(undefined, {
      onSuccess: () => goToSignInAfterSignOut(),
      onError: () => notify('error', 'Sign-out failed', 'Try again; your session is still open.'),
    });
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Box
        component="header"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', background: 'var(--mantine-color-white)' }}
      >
        <Container size="xl" py="sm">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Group gap="xs" wrap="nowrap">
              <IconKey aria-hidden size={22} color="var(--mantine-color-indigo-7)" />
              <Anchor href={home} onClick={linkHandler(home)} fw={700} c="dark" underline="never">
                airkey
              </Anchor>
              <Text c="dimmed" size="sm" aria-label="Organisation">
                {session.user.tenant.name}
              </Text>
            </Group>
            <Nav links={links} current={current} />
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed" visibleFrom="sm" title={session.user.email}>
                {session.user.email}
              </Text>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconLogout size={16} aria-hidden />}
                onClick={onSignOut}
                loading={signOut.isPending}
              >
                Sign out
              </Button>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container component="main" id="main" tabIndex={-1} size="xl" py="lg" style={{ outline: 'none' }}>
        <NoSecondFactorBanner session={session} current={current} />
        {children}
      </Container>
    </>
  );
}

/**
 * A System Administrator holds every key's power: while only a password guards that, every page
 * says so, until a second factor is added.
 */
function NoSecondFactorBanner({ session, current }: { session: Session; current: string }) {
  if (!session.user.roles.includes('system_administrator') || hasSecondFactor(session)) return null;
  if (session.enrolment_required) return null;
  const security = '/backoffice/settings/security';
  return (
    <Alert role="note" color="yellow" variant="light" icon={<IconShieldLock aria-hidden />} mb="md" py="xs">
      {/* One line on a laptop: the page below it stays in view. */}
      <strong>Only a password protects this account</strong>, which can create keys with every power in this
      organisation.{' '}
      {current === security ? (
        'Add a passkey or an authenticator app below.'
      ) : (
        <Anchor href={security} onClick={linkHandler(security)} inherit fw={600} c="dark.9" underline="always">
          Add a second factor on the Security page
        </Anchor>
      )}
    </Alert>
  );
}

/** The pages this user may open; the current one is marked for assistive technology. */
function Nav({ links, current }: { links: NavLink[]; current: string }) {
  if (links.length === 0) return null;
  return (
    <Group component="nav" aria-label="Back office" gap="md">
      {links.map((link) => {
        const active = link.href === current;
        return (
          <Anchor
            key={link.href}
            href={link.href}
            onClick={linkHandler(link.href)}
            aria-current={active ? 'page' : undefined}
            fw={active ? 700 : 500}
            c={active ? 'indigo.8' : 'dark.6'}
            underline={active ? 'always' : 'hover'}
            size="sm"
          >
            {link.label}
          </Anchor>
        );
      })}
    </Group>
  );
}
