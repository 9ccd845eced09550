import { Center, Loader } from '@mantine/core';

export function CenteredLoader({ label }: { label: string }) {
  return (
    <Center mih={240} role="status" aria-label={label}>
      <Loader aria-hidden />
    </Center>
  );
}
