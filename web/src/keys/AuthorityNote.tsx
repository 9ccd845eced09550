import { Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { KeyAuthority } from '../shared/api-types.ts';

const EXPLANATION: Record<KeyAuthority, string> = {
  creator:
    'Keys act as the user who created them: they may do what that user’s roles allow right now, and stop working if that user is deleted.',
  system: 'Keys act as a system user with every API permission, whatever becomes of the user who created them.',
};

/** The tenant's key authority in one line. */
export function AuthorityNote({ authority }: { authority: KeyAuthority }) {
  return (
    <Text size="sm" c="dark.4" data-testid="authority-note">
      <IconInfoCircle size={16} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 4 }} />
      {EXPLANATION[authority]}
    </Text>
  );
}
