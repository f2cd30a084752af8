import {
  Anchor,
  Button,
  Code,
  FileInput,
  Group,
  Image,
  Modal,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api, csrfToken } from '../../app/api';
import { ErrorNotice, notifyDone, notifyError } from '../../app/errors';
import { formatDateTime } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ListBody, useOffsetParam } from '../../components/ListBody';
import { formatBytes } from '../backups/Backups';

type Artifact = Schemas['Artifact'];
type ArtifactType = Artifact['type'];

const PAGE = 25;
const TYPES: ArtifactType[] = ['code', 'tests', 'documentation'];
const PREVIEW_BYTES = 64 * 1024;

export function contentUrl(id: string): string {
  return `/api/v1/artifacts/${encodeURIComponent(id)}/content`;
}

/** Text shown as text, images as images; anything else only offered for download. */
export function previewKind(contentType: string): 'text' | 'image' | null {
  if (contentType.startsWith('image/')) {
    return 'image';
  }
  if (contentType.startsWith('text/') || /json|xml|yaml|javascript|typescript/.test(contentType)) {
    return 'text';
  }
  return null;
}

function Preview({ artifact, onClose }: { artifact: Artifact; onClose: () => void }) {
  const kind = previewKind(artifact.content_type);
  const [text, setText] = useState<string | null>(null);
  const [image, setImage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    const load = async () => {
      const response = await globalThis.fetch(
        new Request(`${window.location.origin}${contentUrl(artifact.id)}`, {
          credentials: 'same-origin',
          headers: kind === 'text' ? { range: `bytes=0-${PREVIEW_BYTES - 1}` } : {},
        }),
      );
      if (!response.ok) {
        throw new Error(`The content could not be loaded (HTTP ${response.status})`);
      }
      if (kind === 'image') {
        url = URL.createObjectURL(await response.blob());
        if (!cancelled) {
          setImage(url);
        }
      } else if (!cancelled) {
        setText(await response.text());
      }
    };
    if (kind) {
      load().catch((caught: unknown) => !cancelled && setError(caught));
    }
    return () => {
      cancelled = true;
      if (url) {
        URL.revokeObjectURL(url);
      }
    };
  }, [artifact.id, kind]);

  return (
    <Modal opened onClose={onClose} title={artifact.path} size="xl">
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {artifact.content_type} · {formatBytes(artifact.size_bytes)}
          {artifact.sha256 ? ` · SHA-256 ${artifact.sha256.slice(0, 16)}…` : ''}
        </Text>
        {error ? <ErrorNotice error={error} title="No preview" /> : null}
        {!kind ? <Text size="sm">This kind of content has no preview; download it instead.</Text> : null}
        {kind === 'text' && text === null && !error ? <Loading label="Loading the preview" /> : null}
        {text !== null ? (
          <Code block mah={480} style={{ overflow: 'auto' }}>
            {text}
            {artifact.size_bytes > PREVIEW_BYTES ? '\n…' : ''}
          </Code>
        ) : null}
        {image ? <Image src={image} alt={`Preview of ${artifact.path}`} mah={480} fit="contain" /> : null}
        <Group justify="flex-end">
          <Button component="a" href={contentUrl(artifact.id)} download variant="default">
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function UploadDialog({ opened, onClose, defaultTask }: { opened: boolean; onClose: () => void; defaultTask: string }) {
  const client = useQueryClient();
  const { me } = useSession();
  const [task, setTask] = useState(defaultTask);
  const [type, setType] = useState<ArtifactType>('documentation');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || !task.trim()) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const artifact = await unwrap(
        api.POST('/api/v1/artifacts', {
          body: {
            task_id: task.trim(),
            created_by: me.username,
            path: file.name,
            type,
            content_type: file.type || 'application/octet-stream',
            description: description.trim(),
          },
        }),
      );
      const token = csrfToken();
      const response = await globalThis.fetch(
        new Request(`${window.location.origin}${contentUrl(artifact.id)}`, {
          method: 'PUT',
          credentials: 'same-origin',
          headers: {
            'content-type': file.type || 'application/octet-stream',
            ...(token ? { 'x-csrf-token': token } : {}),
          },
          body: file,
        }),
      );
      if (!response.ok) {
        const body: unknown = await response.json().catch(() => null);
        await unwrap(Promise.resolve({ response, error: body }));
      }
      notifyDone(`${file.name} was uploaded`);
      await client.invalidateQueries({ queryKey: ['artifacts'] });
      setFile(null);
      onClose();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Upload an artifact">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label="Task id" value={task} onChange={(e) => setTask(e.currentTarget.value)} />
          <NativeSelect
            label="Type"
            value={type}
            onChange={(e) => setType(e.currentTarget.value as ArtifactType)}
            data={TYPES}
          />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <FileInput label="File" value={file} onChange={setFile} placeholder="Choose a file" clearable />
          {error ? <ErrorNotice error={error} title="The artifact was not uploaded" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!file || !task.trim()}>
              Upload
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** /artifacts: what the agents produced, by task, creator and type; preview, download, upload, delete. */
export default function Artifacts() {
  const { me } = useSession();
  const client = useQueryClient();
  const writable = can(me.role, 'write');
  const [params, setParams] = useSearchParams();
  const filters = {
    task: params.get('task') ?? '',
    creator: params.get('creator') ?? '',
    type: params.get('type') ?? '',
  };
  const [draft, setDraft] = useState(filters);
  const [offset, setOffset] = useOffsetParam();
  const [previewing, setPreviewing] = useState<Artifact | null>(null);
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['artifacts', 'list', filters, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/artifacts', {
          params: {
            query: {
              offset,
              limit: PAGE,
              ...(filters.task ? { task_id: filters.task } : {}),
              ...(filters.creator ? { created_by: filters.creator } : {}),
              ...(filters.type ? { type: filters.type as ArtifactType } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

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

  const remove = async (artifact: Artifact) => {
    setDeleting(artifact.id);
    try {
      await unwrap(api.DELETE('/api/v1/artifacts/{artifact_id}', { params: { path: { artifact_id: artifact.id } } }));
      notifyDone(`${artifact.path} was deleted`);
      await client.invalidateQueries({ queryKey: ['artifacts'] });
    } catch (error) {
      notifyError(error, 'The artifact was not deleted');
    } finally {
      setDeleting(null);
    }
  };

  const body = (
    <ListBody
      list={list}
      label="Artifacts"
      errorTitle="The artifacts could not be loaded"
      loadingLabel="Loading the artifacts"
      emptyTitle="No artifacts"
      emptyText="Agents record code, tests and documents here as they finish tasks."
      minWidth={760}
      head={
        <>
          <Table.Th scope="col">Path</Table.Th>
          <Table.Th scope="col">Type</Table.Th>
          <Table.Th scope="col">Task</Table.Th>
          <Table.Th scope="col">By</Table.Th>
          <Table.Th scope="col">Size</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
      row={(a) => (
        <Table.Tr key={a.id}>
          <Table.Td>
            <Anchor component="button" type="button" onClick={() => setPreviewing(a)} aria-label={`Preview ${a.path}`}>
              {a.path}
            </Anchor>
            {a.description ? (
              <Text size="xs" c="dimmed">
                {a.description}
              </Text>
            ) : null}
          </Table.Td>
          <Table.Td>{a.type}</Table.Td>
          <Table.Td>
            <Anchor component={Link} to={`/tasks/${a.task_id}`}>
              {a.task_id.slice(0, 8)}
            </Anchor>
          </Table.Td>
          <Table.Td>{a.created_by}</Table.Td>
          <Table.Td>{formatBytes(a.size_bytes)}</Table.Td>
          <Table.Td>{formatDateTime(a.created_at)}</Table.Td>
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <Button
                component="a"
                href={contentUrl(a.id)}
                download
                size="xs"
                variant="subtle"
                aria-label={`Download ${a.path}`}
              >
                Download
              </Button>
              {writable ? (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  loading={deleting === a.id}
                  onClick={() => void remove(a)}
                  aria-label={`Delete ${a.path}`}
                >
                  Delete
                </Button>
              ) : null}
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
      pager={{ offset, limit: PAGE, label: 'Pages of artifacts', onChange: setOffset }}
    />
  );

  return (
    <Stack>
      <PageHeader
        title="Artifacts"
        description="Code, tests and documents the agents produced."
        actions={writable ? <Button onClick={() => setUploading(true)}>Upload</Button> : null}
      />
      <Paper withBorder p="sm" component="form" onSubmit={apply} aria-label="Artifact filters">
        <Title order={2} size="h5" mb={4}>
          Filters
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="Task id"
            value={draft.task}
            onChange={(e) => setDraft({ ...draft, task: e.currentTarget.value })}
          />
          <TextInput
            label="Created by"
            value={draft.creator}
            onChange={(e) => setDraft({ ...draft, creator: e.currentTarget.value })}
          />
          <NativeSelect
            label="Type"
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}
            data={[{ value: '', label: 'Any type' }, ...TYPES]}
          />
        </SimpleGrid>
        <Group mt="xs">
          <Button type="submit" variant="light">
            Apply filters
          </Button>
        </Group>
      </Paper>
      {body}
      {previewing ? <Preview artifact={previewing} onClose={() => setPreviewing(null)} /> : null}
      <UploadDialog opened={uploading} onClose={() => setUploading(false)} defaultTask={filters.task} />
    </Stack>
  );
}
