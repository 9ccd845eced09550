import { Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import type { Role } from './roles.ts';
import { useCreateUser } from './users-api.ts';
import { useFeedback, FailureAlert } from '../shared/Feedback.tsx';
import { RoleChecks } from './RoleChecks.tsx';
import { FormButtons } from '../shared/FormButtons.tsx';

type Props = { opened: boolean; onClose: () => void; canGrantSystemAdministrator: boolean };

export function AddUserDialog({ opened, onClose, canGrantSystemAdministrator }: Props) {
  const create = useCreateUser();
  const notify = useFeedback();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<Role[]>(['operations']);
  const close = () => {
    setEmail('');
    setName('');
    setPassword('');
    setRoles(['operations']);
    create.reset();
    onClose();
  };
  const error = create.error;
  const field = (path: string) => (isApiError(error) ? error.fieldError(path) : undefined);
  const general = error && !['email', 'name', 'password', 'roles'].some((path) => field(path)) ? error : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { email: email.trim(), name: name.trim(), password, roles },
      {
        onSuccess: (user) => {
          notify('success', 'User added', `${user.email} can now sign in.`);
          close();
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title="Add user" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {general && <FailureAlert title="The user was not added" error={general} />}
          <TextInput
            data-autofocus
            label="E-mail"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={field('email')}
            autoComplete="off"
          />
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={field('name')}
            autoComplete="off"
          />
          <PasswordInput
            label="Initial password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={field('password')}
            autoComplete="new-password"
            description="Share it with the user over a safe channel."
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the password' }}
          />
          <RoleChecks
            value={roles}
            onChange={setRoles}
            canGrantSystemAdministrator={canGrantSystemAdministrator}
            error={field('roles')}
          />
          <FormButtons
            submit="Add user"
            pending={create.isPending}
            disabled={!email.trim() || !name.trim() || !password}
            onCancel={close}
          />
        </Stack>
      </form>
    </Modal>
  );
}
