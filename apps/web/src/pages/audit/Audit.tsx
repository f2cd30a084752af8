import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { ListBody, useOffsetParam } from '../../components/ListBody';

type Entry = Schemas['AuditEntry'];
type Verification = Schemas['AuditVerification'];

const PAGE = 50;

const BREAK_REASON: Record<string, string> = {
  hash_mismatch: 'its content no longer matches its hash (it was edited)',
  link_mismatch: 'it does not link to the row before it',
  gap: 'the row before it is missing (deleted)',
};

/** "2026-01-01T10:00" from a datetime-local input → an ISO instant, or undefined when empty. */
function instant(local: string): string | undefined {
  if (!local) {
    return undefined;
  }
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function verificationText(result: Verification): string {
  if (result.ok) {
    return `The trail is intact: ${result.checked} ${result.checked === 1 ? 'row' : 'rows'} checked.`;
  }
  const reason = result.reason ? (BREAK_REASON[result.reason] ?? result.reason) : 'it does not verify';
  return `The trail is broken at row ${result.broken_seq ?? '?'}: ${reason}. ${result.checked} rows checked.`;
}

function VerifyButton() {
  const [result, setResult] = useState<Verification | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await unwrap(api.GET('/api/v1/audit/verify')));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button loading={busy} onClick={() => void verify()}>
          Verify
        </Button>
        <Text size="sm" c="dimmed">
          Checks every row’s hash and its link to the row before.
        </Text>
      </Group>
      {result ? (
        <Alert
          color={result.ok ? 'green' : 'red'}
          variant="light"
          role={result.ok ? 'status' : 'alert'}
          title={result.ok ? 'Verified' : 'Verification failed'}
        >
          <Text size="sm">{verificationText(result)}</Text>
        </Alert>
      ) : null}
      {error ? <ErrorNotice error={error} title="The trail could not be verified" /> : null}
    </Stack>
  );
}

function EntryDetail({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  return (
    <Modal opened={entry !== null} onClose={onClose} title={entry ? `Audit row ${entry.seq}` : ''} size="lg">
      {entry ? (
        <Stack gap="xs">
          <SimpleGrid cols={2} component="dl" m={0}>
            {(
              [
                ['When', formatDateTime(entry.at)],
                ['Actor', entry.actor],
                ['Action', entry.action],
                ['Target', entry.target ?? '—'],
                ['Outcome', entry.outcome],
                ['Request', entry.request_id ?? '—'],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <Text size="xs" c="dimmed" component="dt">
                  {label}
                </Text>
                <Text size="sm" component="dd" m={0} style={{ wordBreak: 'break-all' }}>
                  {value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            Details
          </Text>
          <Code block>{JSON.stringify(entry.details, null, 2)}</Code>
          <Text size="xs" c="dimmed">
            Hash
          </Text>
          <Code style={{ wordBreak: 'break-all' }}>{entry.hash}</Code>
          <Text size="xs" c="dimmed">
            Previous hash
          </Text>
          <Code style={{ wordBreak: 'break-all' }}>{entry.prev_hash}</Code>
        </Stack>
      ) : null}
    </Modal>
  );
}

/** /audit (CEO, Board member): the hash-chained trail with filters, row detail and verification. */
export default function Audit() {
  const { me } = useSession();
  const allowed = can(me.role, 'audit');
  const [params, setParams] = useSearchParams();
  const filters = {
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    since: params.get('since') ?? '',
    until: params.get('until') ?? '',
  };
  const [offset, setOffset] = useOffsetParam();
  const [draft, setDraft] = useState(filters);
  const [open, setOpen] = useState<Entry | null>(null);
  const trail = useQuery({
    queryKey: ['audit', filters, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/audit', {
          params: {
            query: {
              offset,
              limit: PAGE,
              ...(filters.actor ? { actor: filters.actor } : {}),
              ...(filters.action ? { action: filters.action } : {}),
              ...(instant(filters.since) ? { since: instant(filters.since) } : {}),
              ...(instant(filters.until) ? { until: instant(filters.until) } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });

  if (!allowed) {
    return (
      <>
        <PageHeader title="Audit" />
        <Alert color="blue" variant="light" title="The audit trail is for the CEO and the board">
          Your role cannot read it.
        </Alert>
      </>
    );
  }

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [key, value] of Object.entries(draft)) {
      if (value.trim()) {
        next.set(key, value.trim());
      }
    }
    setParams(next);
  };

  const body = (
    <ListBody
      list={trail}
      label="Audit trail"
      errorTitle="The audit trail could not be loaded"
      loadingLabel="Loading the audit trail"
      emptyTitle="No matching rows"
      emptyText="Change or clear the filters."
      minWidth={720}
      highlightOnHover
      head={
        <>
          <Table.Th scope="col">Row</Table.Th>
          <Table.Th scope="col">When</Table.Th>
          <Table.Th scope="col">Actor</Table.Th>
          <Table.Th scope="col">Action</Table.Th>
          <Table.Th scope="col">Target</Table.Th>
          <Table.Th scope="col">Outcome</Table.Th>
        </>
      }
      row={(entry) => (
        <Table.Tr key={entry.id}>
          <Table.Td>
            <Anchor
              component="button"
              type="button"
              onClick={() => setOpen(entry)}
              aria-label={`Details of row ${entry.seq}`}
            >
              {entry.seq}
            </Anchor>
          </Table.Td>
          <Table.Td>{formatDateTime(entry.at)}</Table.Td>
          <Table.Td>{entry.actor}</Table.Td>
          <Table.Td>
            <Code>{entry.action}</Code>
          </Table.Td>
          <Table.Td style={{ wordBreak: 'break-all' }}>{entry.target ?? '—'}</Table.Td>
          <Table.Td>
            <Badge size="sm" variant="light" color={/^(success|ok|allowed)$/.test(entry.outcome) ? 'green' : 'red'}>
              {entry.outcome}
            </Badge>
          </Table.Td>
        </Table.Tr>
      )}
      pager={{ offset, limit: PAGE, label: 'Pages of the audit trail', onChange: setOffset }}
    />
  );

  return (
    <Stack>
      <PageHeader
        title="Audit"
        description="Every request that changed something, newest first, in a tamper-evident chain."
      />
      <VerifyButton />
      <form onSubmit={apply} aria-label="Audit filters">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput
            label="Actor"
            value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.currentTarget.value })}
          />
          <TextInput
            label="Action"
            placeholder="e.g. setting.changed"
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })}
          />
          <TextInput
            label="From"
            type="datetime-local"
            value={draft.since}
            onChange={(e) => setDraft({ ...draft, since: e.currentTarget.value })}
          />
          <TextInput
            label="Until"
            type="datetime-local"
            value={draft.until}
            onChange={(e) => setDraft({ ...draft, until: e.currentTarget.value })}
          />
        </SimpleGrid>
        <Group mt="sm" gap="xs">
          <Button type="submit" variant="light">
            Apply filters
          </Button>
          <Button
            variant="subtle"
            onClick={() => {
              setDraft({ actor: '', action: '', since: '', until: '' });
              setParams(new URLSearchParams());
            }}
          >
            Clear
          </Button>
        </Group>
      </form>
      {body}
      <EntryDetail entry={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
