import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { ErrorNotice, notifyDone } from '../../app/errors';
import type { Decision } from './ApprovalCard';
import { type Approval, approvalKeys, approveItem, rejectItem } from './queries';

const LIMIT = 4096;

/** A field's description, dark enough to read on white. */
function Hint({ children }: { children: string }) {
  return (
    <Text span inherit c="gray.7">
      {children}
    </Text>
  );
}

interface DecisionDialogProps {
  item: Approval | null;
  decision: Decision;
  onClose: () => void;
}

/**
 * Approve with an optional comment, or reject with a reason; the server's refusal (already decided,
 * expired, not this person's department) is shown in the dialog with its code.
 */
export function DecisionDialog({ item, decision, onClose }: DecisionDialogProps) {
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const approving = decision === 'approve';

  const mutation = useMutation({
    mutationFn: ({ id, value }: { id: string; value: string }) =>
      approving ? approveItem(id, value) : rejectItem(id, value),
    onSuccess: (decided) => {
      notifyDone(`${approving ? 'Approved' : 'Rejected'}: ${decided.title}`);
      void client.invalidateQueries({ queryKey: approvalKeys.all });
      close();
    },
  });

  function close() {
    setText('');
    setMissing(false);
    mutation.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!item) {
      return;
    }
    const value = text.trim();
    if (!approving && !value) {
      setMissing(true);
      return;
    }
    mutation.mutate({ id: item.id, value });
  }

  return (
    <Modal
      opened={item !== null}
      onClose={close}
      title={item ? `${approving ? 'Approve' : 'Reject'}: ${item.title}` : ''}
      size="lg"
      // The scroll lock injects a style element of its own, which the console's style policy refuses.
      styles={{ title: { fontWeight: 600, overflowWrap: 'anywhere' } }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {approving
              ? 'The agent runs the call as shown and carries on with its task.'
              : 'The agent hears the refusal and its reason, and does not run the call.'}
          </Text>
          {approving ? (
            <Textarea
              label="Comment"
              description={<Hint>Optional; kept with the decision</Hint>}
              rows={4}
              maxLength={LIMIT}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              data-autofocus
            />
          ) : (
            <Textarea
              label="Reason"
              description={<Hint>Required; the agent and the history show it</Hint>}
              required
              rows={4}
              maxLength={LIMIT}
              value={text}
              error={missing && !text.trim() ? 'Give a reason for the rejection' : undefined}
              onChange={(event) => setText(event.currentTarget.value)}
              data-autofocus
            />
          )}
          {mutation.error ? (
            <ErrorNotice error={mutation.error} title={approving ? 'Not approved' : 'Not rejected'} />
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={approving ? 'teal.9' : 'red.9'} loading={mutation.isPending}>
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
