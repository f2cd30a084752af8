import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A list or page with nothing in it yet, saying what would fill it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children ? (
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {children}
        </Text>
      ) : null}
    </Stack>
  );
}
