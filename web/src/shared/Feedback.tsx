// How the back office tells the user what happened: passing messages, and failed loads in place.
import { Alert, Button, Notification, Skeleton, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { isApiError } from './api-client.ts';

type Message = { id: number; tone: 'success' | 'error'; title: string; text?: string | undefined };
type Notify = (tone: Message['tone'], title: string, text?: string) => void;

const FeedbackContext = createContext<Notify>(() => {});

/** Short-lived messages in a live region, so screen readers hear what changed. */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<Message[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setMessages((all) => all.filter((message) => message.id !== id)), []);
  const notify = useCallback<Notify>(
    (tone, title, text) => {
      const id = next.current++;
      setMessages((all) => [...all.slice(-2), { id, tone, title, text }]);
      // Errors stay until dismissed or replaced; confirmations fade.
      if (tone === 'success') setTimeout(() => dismiss(id), 5000);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <FeedbackContext.Provider value={value}>
      {children}
      <Stack
        aria-live="polite"
        gap="xs"
        pos="fixed"
        bottom={16}
        right={16}
        left={16}
        maw={420}
        ml="auto"
        style={{ zIndex: 1000, pointerEvents: 'none' }}
      >
        {messages.map((message) => (
          <Notification
            key={message.id}
            color={message.tone === 'error' ? 'red' : 'teal'}
            title={message.title}
            onClose={() => dismiss(message.id)}
            closeButtonProps={{ 'aria-label': 'Dismiss message' }}
            withBorder
            style={{ pointerEvents: 'auto' }}
            styles={{ description: { color: 'var(--mantine-color-gray-8)' } }}
            role={message.tone === 'error' ? 'alert' : 'status'}
          >
            {message.text}
          </Notification>
        ))}
      </Stack>
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Notify {
  return useContext(FeedbackContext);
}

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

/** An action the server refused, said in place (a dialog, a form): its reason, or a plain word. */
export function FailureAlert({ title, error }: { title: string; error: unknown }) {
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      {isApiError(error) ? error.detail : 'Something went wrong. Try again.'}
    </Alert>
  );
}

/** A list or table still loading: grey rows of its size, named for screen readers. */
export function LoadingRows({ label, rows, height }: { label: string; rows: number; height: number }) {
  return (
    <Stack gap="xs" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, row) => (
        <Skeleton key={row} height={height} />
      ))}
    </Stack>
  );
}
