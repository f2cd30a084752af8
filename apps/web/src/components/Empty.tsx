import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A list or page with nothing in it yet, saying what would fill it. `level` keeps the outline whole:
 * 2 where the list sits directly under the page's title, 3 (the default) inside a titled section.
 */
export function Empty({ title, children, level = 3 }: { title: string; children?: ReactNode; level?: 2 | 3 | 4 }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Title order={level} size="h5">
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
