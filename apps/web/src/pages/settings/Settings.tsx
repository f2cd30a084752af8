import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { type Namespace, NamespaceSettings } from './SettingsForm';

const NAMESPACE_LABEL: Record<string, string> = {
  api: 'API',
  company: 'Company',
  providers: 'Providers',
  memory: 'Memory',
  budget: 'Budget',
  security: 'Security',
  coordination: 'Coordination',
  observability: 'Logging',
  backup: 'Backup',
};

type Sink = Schemas['SinkInfo'];

/** The log sinks this replica runs, and a check of custom sink settings before saving them. */
function LogSinks({ writable }: { writable: boolean }) {
  const sinks = useQuery({
    queryKey: ['system', 'sinks'],
    queryFn: () => unwrap(api.GET('/api/v1/settings/observability/sinks')),
  });
  const [custom, setCustom] = useState('[]');
  const [result, setResult] = useState<Schemas['TestSinkConfigResult'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const test = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(
        await unwrap(api.POST('/api/v1/settings/observability/sinks/_test', { body: { custom_sinks: custom } })),
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const row = (sink: Sink) => (
    <Table.Tr key={sink.identifier}>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {sink.identifier}
        </Text>
      </Table.Td>
      <Table.Td>{sink.sink_type}</Table.Td>
      <Table.Td>{sink.level}</Table.Td>
      <Table.Td>{sink.json_format ? 'JSON' : 'Text'}</Table.Td>
      <Table.Td>
        <Badge size="sm" variant="light" color={sink.enabled ? 'green' : 'gray'}>
          {sink.enabled ? 'On' : 'Off'}
        </Badge>{' '}
        {sink.is_default ? (
          <Badge size="sm" variant="outline" color="gray">
            Built in
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>{sink.routing_prefixes.length > 0 ? sink.routing_prefixes.join(', ') : 'Everything'}</Table.Td>
    </Table.Tr>
  );

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="log-sinks">
      <Stack gap="sm">
        <Title order={2} size="h4" id="log-sinks">
          Log sinks
        </Title>
        {sinks.error ? <ErrorNotice error={sinks.error} title="The sinks could not be loaded" /> : null}
        {!sinks.data && !sinks.error ? <Loading label="Loading the sinks" /> : null}
        {sinks.data ? (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" aria-label="Log sinks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Sink</Table.Th>
                  <Table.Th scope="col">Type</Table.Th>
                  <Table.Th scope="col">Level</Table.Th>
                  <Table.Th scope="col">Format</Table.Th>
                  <Table.Th scope="col">State</Table.Th>
                  <Table.Th scope="col">Routes</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>{sinks.data.map(row)}</Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {writable ? (
          <Stack gap="xs">
            <Textarea
              label="Custom sinks to check"
              description='A JSON array, e.g. [{"sink_type": "file", "file_path": "audit.log"}]. Checking saves nothing.'
              autosize
              minRows={2}
              ff="monospace"
              value={custom}
              onChange={(e) => setCustom(e.currentTarget.value)}
            />
            <Group>
              <Button variant="light" loading={busy} onClick={() => void test()}>
                Check the sinks
              </Button>
            </Group>
            {result ? (
              <Alert
                color={result.valid ? 'green' : 'red'}
                variant="light"
                role="status"
                title={result.valid ? 'The sinks are valid' : 'The sinks are not valid'}
              >
                {result.error ? <Text size="sm">{result.error}</Text> : null}
              </Alert>
            ) : null}
            {error ? <ErrorNotice error={error} title="The check failed" /> : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The security settings as one document: download it, or store one (checked before anything is stored). */
function SecurityTransfer({ writable }: { writable: boolean }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [warning, setWarning] = useState<string | null>(null);

  const exportIt = async () => {
    setBusy('export');
    setError(null);
    try {
      const doc = await unwrap(api.GET('/api/v1/settings/security/export'));
      setWarning(doc.custom_policies_warning);
      const url = URL.createObjectURL(new Blob([JSON.stringify(doc.config, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `security-settings-${doc.exported_at.slice(0, 10)}.json`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  const importIt = async (file: File | null) => {
    if (!file) {
      return;
    }
    setBusy('import');
    setError(null);
    try {
      const config = JSON.parse(await file.text()) as Record<string, unknown>;
      await unwrap(api.POST('/api/v1/settings/security/import', { body: { config } }));
      notifyDone('The security settings were imported');
      await client.invalidateQueries({ queryKey: ['system', 'settings'] });
    } catch (caught) {
      setError(caught instanceof SyntaxError ? new Error(`The file is not JSON: ${caught.message}`) : caught);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="security-transfer">
      <Stack gap="sm">
        <Title order={2} size="h4" id="security-transfer">
          Export and import
        </Title>
        <Text size="sm" c="dimmed">
          Carry the security settings to another installation as one JSON document.
        </Text>
        <Group>
          <Button variant="default" loading={busy === 'export'} onClick={() => void exportIt()}>
            Export security settings
          </Button>
          {writable ? (
            <FileButton accept="application/json,.json" onChange={(file) => void importIt(file)}>
              {(props) => (
                <Button {...props} variant="default" loading={busy === 'import'}>
                  Import security settings
                </Button>
              )}
            </FileButton>
          ) : null}
        </Group>
        {warning ? (
          <Alert color="yellow" variant="light">
            {warning}
          </Alert>
        ) : null}
        {error ? <ErrorNotice error={error} title="The transfer failed" /> : null}
      </Stack>
    </Paper>
  );
}

/** /settings: one form per namespace, generated from the settings schema. */
export default function Settings() {
  const { me } = useSession();
  const writable = can(me.role, 'manage');
  const [params, setParams] = useSearchParams();
  const schema = useQuery({
    queryKey: ['system', 'settings-schema'],
    queryFn: () => unwrap(api.GET('/api/v1/settings/_schema')),
    staleTime: Infinity,
  });

  if (schema.error) {
    return (
      <>
        <PageHeader title="Settings" />
        <ErrorNotice error={schema.error} title="The settings could not be loaded" />
      </>
    );
  }
  if (!schema.data) {
    return <Loading label="Loading the settings" />;
  }
  const namespaces = [...new Set(schema.data.map((d) => d.namespace))];
  const requested = params.get('ns');
  const current = (namespaces as string[]).includes(requested ?? '') ? (requested as Namespace) : namespaces[0];

  return (
    <Stack>
      <PageHeader
        title="Settings"
        description="Each value shows where it comes from: saved here, the environment, the configuration file or the default. A value saved here wins."
      />
      {!writable ? (
        <Alert color="blue" variant="light">
          Your role can read the settings but not change them.
        </Alert>
      ) : null}
      <Tabs
        value={current}
        onChange={(value) => value && setParams({ ns: value }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {namespaces.map((ns) => (
            <Tabs.Tab key={ns} value={ns}>
              {NAMESPACE_LABEL[ns] ?? humanize(ns)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {namespaces.map((ns) => (
          <Tabs.Panel key={ns} value={ns}>
            <Stack>
              <NamespaceSettings namespace={ns} writable={writable} />
              {ns === 'observability' ? <LogSinks writable={writable} /> : null}
              {ns === 'security' ? <SecurityTransfer writable={writable} /> : null}
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
