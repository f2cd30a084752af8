import { Alert, Badge, Button, Code, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone, notifyError } from '../../app/errors';
import { formatDateTime, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { ListBody } from '../../components/ListBody';
import { NamespaceSettings } from '../settings/SettingsForm';

type Backup = Schemas['BackupInfo'];
type Restored = Schemas['RestoreResponse'];

const PAGE = 20;
export const backupsKey = ['backups'] as const;

export function formatBytes(value: number): string {
  if (value < 1024) {
    return `${value} B`;
  }
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = value / 1024;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${n.toFixed(1)} ${units[unit]}`;
}

/** A backup's manifest: its checksum and the version that wrote it. */
function Checksum({ id }: { id: string }) {
  const manifest = useQuery({
    queryKey: [...backupsKey, 'manifest', id],
    queryFn: () => unwrap(api.GET('/api/v1/admin/backups/{backup_id}', { params: { path: { backup_id: id } } })),
    staleTime: Infinity,
  });
  if (manifest.error) {
    return <Text size="xs">not readable</Text>;
  }
  if (!manifest.data) {
    return <Text size="xs">…</Text>;
  }
  return (
    <Code title={`SHA-256 ${manifest.data.checksum} · version ${manifest.data.synthorg_version}`}>
      {manifest.data.checksum.replace(/^sha256:/, '').slice(0, 12)}…
    </Code>
  );
}

/** Restoring replaces the data: the server asks for confirmation and takes a safety backup first. */
function RestoreDialog({ backup, onClose }: { backup: Backup | null; onClose: () => void }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<Restored | null>(null);

  const close = () => {
    setDone(null);
    setError(null);
    onClose();
  };

  const restore = async () => {
    if (!backup) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await unwrap(
        api.POST('/api/v1/admin/backups/restore', { body: { backup_id: backup.backup_id, confirm: true } }),
      );
      setDone(result);
      notifyDone(`Backup ${backup.backup_id} was restored`);
      await client.invalidateQueries();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={backup !== null}
      onClose={close}
      title={backup ? (done ? `Backup ${backup.backup_id} restored` : `Restore backup ${backup.backup_id}?`) : ''}
    >
      {backup && !done ? (
        <Stack>
          <Text size="sm">
            The {backup.components.map(humanize).join(', ').toLowerCase()} of {formatDateTime(backup.timestamp)} replace
            the current ones. A safety backup of the current state is taken first, so this can be undone.
          </Text>
          {error ? <ErrorNotice error={error} title="The backup was not restored" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => void restore()}>
              Restore {backup.backup_id}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {done ? (
        <Stack>
          <Alert color="green" variant="light" title="Restored" role="status">
            <Text size="sm">
              Restored {done.restored_components.map(humanize).join(', ').toLowerCase()} from {done.manifest.backup_id}.
            </Text>
            <Text size="sm">
              Safety backup taken first: <Code>{done.safety_backup_id}</Code>
            </Text>
            {done.restart_required ? <Text size="sm">Restart the service for everything to take effect.</Text> : null}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

/** /backups (CEO): the backups, taking one now, restoring one, and the schedule. */
export default function Backups() {
  const { me } = useSession();
  const client = useQueryClient();
  const allowed = can(me.role, 'administer');
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = useQuery({
    queryKey: [...backupsKey, 'list', offset],
    queryFn: () => unwrapPage(api.GET('/api/v1/admin/backups', { params: { query: { offset, limit: PAGE } } })),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });

  if (!allowed) {
    return (
      <>
        <PageHeader title="Backups" />
        <Alert color="blue" variant="light" title="Only the CEO manages backups">
          Your role cannot see them.
        </Alert>
      </>
    );
  }

  const create = async () => {
    setCreating(true);
    try {
      const manifest = await unwrap(api.POST('/api/v1/admin/backups'));
      notifyDone(`Backup ${manifest.backup_id} was taken (${formatBytes(manifest.size_bytes)})`);
      await client.invalidateQueries({ queryKey: backupsKey });
    } catch (error) {
      notifyError(error, 'The backup was not taken');
    } finally {
      setCreating(false);
    }
  };

  const remove = async (id: string) => {
    setDeleting(id);
    try {
      await unwrap(api.DELETE('/api/v1/admin/backups/{backup_id}', { params: { path: { backup_id: id } } }));
      notifyDone(`Backup ${id} was deleted`);
      await client.invalidateQueries({ queryKey: backupsKey });
    } catch (error) {
      notifyError(error, 'The backup was not deleted');
    } finally {
      setDeleting(null);
    }
  };

  const body = (
    <ListBody
      list={list}
      label="Backups"
      errorTitle="The backups could not be loaded"
      loadingLabel="Loading the backups"
      emptyTitle="No backups yet"
      emptyText="Take one now, or turn on the schedule below."
      minWidth={760}
      head={
        <>
          <Table.Th scope="col">Backup</Table.Th>
          <Table.Th scope="col">Taken</Table.Th>
          <Table.Th scope="col">Why</Table.Th>
          <Table.Th scope="col">Components</Table.Th>
          <Table.Th scope="col">Size</Table.Th>
          <Table.Th scope="col">Checksum</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
      row={(b) => (
        <Table.Tr key={b.backup_id}>
          <Table.Td>
            <Code>{b.backup_id}</Code>
          </Table.Td>
          <Table.Td>{formatDateTime(b.timestamp)}</Table.Td>
          <Table.Td>
            <Badge size="sm" variant="light" color={b.trigger === 'pre_migration' ? 'orange' : 'gray'}>
              {b.trigger === 'pre_migration' ? 'Safety' : humanize(b.trigger)}
            </Badge>
          </Table.Td>
          <Table.Td>{b.components.map(humanize).join(', ')}</Table.Td>
          <Table.Td>
            {formatBytes(b.size_bytes)}
            {b.compressed ? ' (compressed)' : ''}
          </Table.Td>
          <Table.Td>
            <Checksum id={b.backup_id} />
          </Table.Td>
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                variant="light"
                onClick={() => setRestoring(b)}
                aria-label={`Restore backup ${b.backup_id}`}
              >
                Restore
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => void remove(b.backup_id)}
                aria-label={`Delete backup ${b.backup_id}`}
                loading={deleting === b.backup_id}
              >
                Delete
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
      pager={{ offset, limit: PAGE, label: 'Pages of backups', onChange: setOffset }}
    />
  );

  return (
    <Stack>
      <PageHeader
        title="Backups"
        description="The database, agent memory and company configuration, taken on a schedule, at start and stop, or now."
        actions={
          <Button loading={creating} onClick={() => void create()}>
            Back up now
          </Button>
        }
      />
      {body}
      <NamespaceSettings namespace="backup" writable title="Schedule" />
      <RestoreDialog backup={restoring} onClose={() => setRestoring(null)} />
    </Stack>
  );
}
