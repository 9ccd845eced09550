import { Button, Group, Stack, Text } from '@mantine/core';

/**
 * A session from single sign-on confirms at the organisation's provider, which asks again
 * (max_age=0) and sends the person back to this page; a password it may not have is never asked.
 */
export function SsoReauth({ tenantSlug, onCancel }: { tenantSlug: string; onCancel: () => void }) {
  const back = `${window.location.pathname}${window.location.search}`;
  const href = `/backoffice/sso/${encodeURIComponent(tenantSlug)}/start?reauth=1&next=${encodeURIComponent(back)}`;
  return (
    <Stack gap="md">
      <Text>
        This change needs a recent sign-in. You signed in through your organisation: confirm it there, then make the
        change again.
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button component="a" href={href} data-autofocus>
          Confirm with your organisation
        </Button>
      </Group>
    </Stack>
  );
}
