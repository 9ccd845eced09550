import { Anchor, Group } from '@mantine/core';
import type { Permission } from '@contracts';
import { linkHandler } from './router.ts';

const LINKS: { href: string; label: string; permission: Permission }[] = [
  { href: '/backoffice/settings/api-keys', label: 'API keys', permission: 'api_keys:manage' },
  { href: '/backoffice/users', label: 'Users', permission: 'users:manage' },
];

/** Only the pages this user may open; the current one is marked for assistive technology. */
export function NavLinks({ permissions, current }: { permissions: Permission[]; current: string }) {
  const visible = LINKS.filter((link) => permissions.includes(link.permission));
  if (visible.length === 0) return null;
  return (
    <Group component="nav" aria-label="Back office" gap="md">
      {visible.map((link) => {
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
