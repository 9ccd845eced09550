import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isApiError } from './api-client.ts';

/** A failed load, said plainly, with a way to try again. */
export function ProblemAlert({ error, title, onRetry }: { error: unknown; title: string; onRetry?: () => void }) {
  const detail = isApiError(error) ? error.detail : 'Something went wrong. Try again in a moment.';
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle aria-hidden />} role="alert">
      {detail}
      {onRetry && (
        <div>
          <Button mt="sm" size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        </div>
      )}
    </Alert>
  );
}
