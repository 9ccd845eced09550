import { Alert, Button, Divider, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconBuildingSkyscraper } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useLocation } from '../shared/router.ts';
import { ssoReasonText, ssoStartUrl } from './sso-text.ts';

/**
 * "Sign in with SSO" under the password form: the organisation (its slug) or a work e-mail, then
 * the browser goes to the organisation's identity provider and comes back signed in.
 */
export function SsoSignIn({ next }: { next: string }) {
  const [open, setOpen] = useState(false);
  const [who, setWho] = useState('');
  const [tried, setTried] = useState(false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (who.trim()) window.location.assign(ssoStartUrl(who, next));
  };
  return (
    <Stack gap="sm" mt="md">
      <Divider label="or" labelPosition="center" />
      {!open ? (
        <Button
          variant="default"
          fullWidth
          leftSection={<IconBuildingSkyscraper size={16} aria-hidden />}
          onClick={() => setOpen(true)}
        >
          Sign in with SSO
        </Button>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Sign in with SSO">
          <Stack gap="sm">
            <TextInput
              label="Organisation or work e-mail"
              description="Your organisation’s short name, or your e-mail at work"
              autoFocus
              value={who}
              onChange={(event) => setWho(event.currentTarget.value)}
              error={tried && !who.trim() ? 'Enter your organisation or your work e-mail.' : undefined}
            />
            <Button type="submit" variant="light" fullWidth>
              Continue to your organisation
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

/** Why the last single sign-on was refused, as the server named it in `?reason=`. */
export function SsoReasonAlert() {
  const { search } = useLocation();
  const text = ssoReasonText(new URLSearchParams(search).get('reason'));
  if (!text) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title="Single sign-on failed"
      role="alert"
    >
      {text}
    </Alert>
  );
}
