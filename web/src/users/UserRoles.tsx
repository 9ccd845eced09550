import { Badge, Group, Text } from '@mantine/core';
import { roleLabel } from './roles.ts';

export function UserRoles({ roles }: { roles: readonly string[] }) {
  if (roles.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No roles
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant="light" color={role === 'system_administrator' ? 'indigo' : 'gray'} radius="sm" tt="none">
          {roleLabel(role)}
        </Badge>
      ))}
    </Group>
  );
}
