import { Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { LoadingRows, ProblemAlert } from '../shared/Feedback.tsx';
import { RequestDetail } from './RequestDetail.tsx';
import { RequestTable } from './RequestsPanel.tsx';
import { useKeyRequests, type RequestLogEntry } from './request-log-api.ts';

/** A key's latest requests in its view: who used it, from where, and what happened. */
export function KeyRequests({ keyId }: { keyId: string }) {
  const requests = useKeyRequests(keyId);
  const [open, setOpen] = useState<RequestLogEntry | null>(null);
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  return (
    <Stack gap="xs" component="section" aria-labelledby="key-requests-title">
      <Title order={3} size="h4" id="key-requests-title">
        Latest requests
      </Title>
      {requests.isPending ? (
        <LoadingRows label="Loading the key’s requests" rows={3} height={32} />
      ) : requests.isError ? (
        <ProblemAlert error={requests.error} title="The requests could not be loaded" />
      ) : requests.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No requests yet.
        </Text>
      ) : (
        <RequestTable rows={requests.data.data} narrow={narrow} onOpen={setOpen} withKey={false} />
      )}
      <RequestDetail entry={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
