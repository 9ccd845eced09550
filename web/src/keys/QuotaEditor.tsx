import { Button, Stack, Text } from '@mantine/core';
import { IconRotate } from '@tabler/icons-react';
import { formatInstant } from '../shared/dates.ts';
import type { ApiKey } from './keys-api.ts';
import { QuotaInput } from './LimitInput.tsx';
import { QuotaBar } from './QuotaBar.tsx';
import { QUOTA_FIELDS, quotaDraftOf, quotaOf, quotaProblem, quotaText } from './quota-text.ts';
import { SettingEditor } from './SettingEditor.tsx';

/** The key's quota in its view: how much is used, changed or removed in place (PATCH), and a way to reset it. */
export function QuotaEditor({ apiKey, onReset }: { apiKey: ApiKey; onReset: (key: ApiKey) => void }) {
  const quota = apiKey.quota;
  return (
    <SettingEditor
      apiKey={apiKey}
      what="the quota"
      current={
        <Text size="sm" data-testid="key-quota">
          {quotaText(quota)}
        </Text>
      }
      details={
        quota && (
          <Stack gap={6} maw={360}>
            <QuotaBar apiKey={apiKey} testId="key-quota-used" />
            <Text size="xs" c="dimmed" data-testid="key-quota-resets">
              {quota.resets_at ? `Starts again at ${formatInstant(quota.resets_at)}` : 'Never starts again by itself'}
            </Text>
            <div>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconRotate size={14} aria-hidden />}
                onClick={() => onReset(apiKey)}
              >
                Reset quota
              </Button>
            </div>
          </Stack>
        )
      }
      failureTitle="The quota was not changed"
      saveLabel="Save quota"
      draftOf={(key) => quotaDraftOf(key.quota)}
      valid={(draft) => !quotaProblem(draft)}
      changesOf={(draft) => ({ quota: quotaOf(draft) })}
      fieldError={(error) => error.fieldError(...QUOTA_FIELDS)}
      input={(draft, setDraft, fieldError) => (
        <QuotaInput
          draft={draft}
          onChange={setDraft}
          error={quotaProblem(draft) ?? fieldError}
          description="Empty for no quota. What was used this period stays used."
          autoFocus
          hideLabel
        />
      )}
    />
  );
}
