import { Button, Group, Text, Textarea } from '@mantine/core';
import { useClientAddress } from './allowed-ips-api.ts';
import { ipLineProblems, withAddress } from './allowed-ips-text.ts';

const LABEL = 'Allowed IP addresses';

type Props = {
  value: string;
  onChange: (value: string) => void;
  /** A problem the server named (already told by line); shown when the box itself finds none. */
  serverError?: string | undefined;
  description: string;
  autoFocus?: boolean;
  /** The box's label for screen readers only: where a heading above already says what it is. */
  hideLabel?: boolean;
};

/**
 * "Allowed IP addresses": one address or CIDR range per line, each judged as it is typed with the
 * server's own rule, and the caller's own address offered as a line to add.
 */
export function AllowedIpsInput({
  value,
  onChange,
  serverError,
  description,
  autoFocus = false,
  hideLabel = false,
}: Props) {
  const own = useClientAddress();
  const problems = ipLineProblems(value);
  const shown = problems.length > 0 ? problems : serverError ? [serverError] : [];
  const address = own.data?.address;
  return (
    <div>
      <Textarea
        {...(hideLabel ? { 'aria-label': LABEL } : { label: LABEL })}
        description={description}
        placeholder={'Any address. One per line, e.g.\n203.0.113.7\n198.51.100.0/24'}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={10}
        spellCheck={false}
        autoComplete="off"
        autoFocus={autoFocus}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        // One line per problem; spans, since Mantine writes the error inside a paragraph.
        error={
          shown.length === 0 ? undefined : (
            <span data-testid="allowed-ips-problems">
              {shown.map((problem) => (
                <span key={problem} style={{ display: 'block' }}>
                  {problem}
                </span>
              ))}
            </span>
          )
        }
      />
      {address && (
        <Group gap="xs" mt={6} wrap="nowrap">
          <Text size="xs" c="dimmed">
            Your address, as airkey sees it: <code>{address}</code>
          </Text>
          <Button
            variant="subtle"
            size="compact-xs"
            onClick={() => onChange(withAddress(value, address))}
            aria-label={`Add my address ${address} to the allowed IP addresses`}
          >
            Add
          </Button>
        </Group>
      )}
    </div>
  );
}
