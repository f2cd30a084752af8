import { Box, Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';

import { STEPS, type StepKey, stepIndex } from './steps';

/**
 * Where the person is in the wizard: every step in order, the current one marked for assistive
 * technology (aria-current) and in words, finished ones with a check mark, not only a colour.
 */
export function StepIndicator({ current }: { current: StepKey }) {
  const active = stepIndex(current);
  return (
    <Box component="nav" aria-label="Setup progress">
      <Text size="sm" c="dimmed" mb="xs">
        Step {active + 1} of {STEPS.length}: {STEPS[active]?.label}
      </Text>
      <Group component="ol" gap="xs" wrap="wrap" p={0} m={0} style={{ listStyle: 'none' }}>
        {STEPS.map((step, index) => {
          const done = index < active;
          const here = index === active;
          return (
            <Group
              component="li"
              key={step.key}
              gap={8}
              wrap="nowrap"
              aria-current={here ? 'step' : undefined}
              style={{ flex: '1 1 150px' }}
            >
              <ThemeIcon
                radius="xl"
                size={30}
                variant={here || done ? 'filled' : 'outline'}
                color={done ? 'teal.8' : 'indigo.8'}
                aria-hidden
              >
                <Text span size="sm" fw={700}>
                  {done ? '✓' : index + 1}
                </Text>
              </ThemeIcon>
              <Box>
                <Text size="sm" fw={here ? 700 : 500}>
                  {step.label}
                  <VisuallyHidden>{done ? ' (done)' : here ? ' (current step)' : ''}</VisuallyHidden>
                </Text>
                <Text size="xs" c="dimmed">
                  {step.description}
                </Text>
              </Box>
            </Group>
          );
        })}
      </Group>
    </Box>
  );
}
