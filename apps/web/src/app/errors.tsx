import { Alert, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';

import { ApiError } from '@app/client';

import { ROLE_LABELS } from './roles';

/** One line a person can act on: the API's message and its 4-digit code. */
export function describeError(error: unknown): { message: string; code: number | null } {
  if (error instanceof ApiError) {
    if (error.status === 403) {
      return {
        message: `Your role does not allow this: ${error.message}`,
        code: error.code || null,
      };
    }
    return { message: error.message, code: error.code || null };
  }
  return { message: error instanceof Error ? error.message : String(error), code: null };
}

export function errorText(error: unknown): string {
  const { message, code } = describeError(error);
  return code ? `${message} (code ${code})` : message;
}

/** A failed load or action, shown where it happened. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const { message, code } = describeError(error);
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Text size="sm">{message}</Text>
      {code ? (
        <Text size="xs" c="dimmed" mt={4}>
          Error code {code}
        </Text>
      ) : null}
    </Alert>
  );
}

/** A failed action that has no form to show it on: a toast that stays until read. */
export function notifyError(error: unknown, title = 'The action failed'): void {
  notifications.show({ color: 'red', title, message: errorText(error), autoClose: 10_000 });
}

export function notifyDone(message: string): void {
  notifications.show({ color: 'green', message, autoClose: 4000 });
}

/** "Only a CEO or manager can …": the reason a control is missing or refused. */
export function roleNames(roles: readonly string[]): string {
  return roles.map((role) => ROLE_LABELS[role] ?? role).join(', ');
}
