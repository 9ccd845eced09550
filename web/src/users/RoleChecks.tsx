import { Checkbox, Stack } from '@mantine/core';
import type { Role } from './roles.ts';
import { ALL_ROLES, ROLE_HELP, ROLE_LABELS } from './roles.ts';

type Props = {
  value: Role[];
  onChange: (roles: Role[]) => void;
  canGrantSystemAdministrator: boolean;
  error?: string | undefined;
  label?: string;
};

/** One checkbox per role, with what it allows; only a System Administrator may touch that role. */
export function RoleChecks({ value, onChange, canGrantSystemAdministrator, error, label = 'Roles' }: Props) {
  return (
    <Checkbox.Group label={label} value={value} onChange={(roles) => onChange(roles)} error={error}>
      <Stack gap="xs" mt="xs">
        {ALL_ROLES.map((role) => (
          <Checkbox
            key={role}
            value={role}
            label={ROLE_LABELS[role]}
            description={
              role === 'system_administrator' && !canGrantSystemAdministrator
                ? `${ROLE_HELP[role]}. Only a System Administrator can change this role.`
                : ROLE_HELP[role]
            }
            disabled={role === 'system_administrator' && !canGrantSystemAdministrator}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
