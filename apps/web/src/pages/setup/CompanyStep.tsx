import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { humanize } from '../../app/format';
import { setupStatusKey } from '../../app/session';
import { Loading } from '../../components/Loading';

type Template = Schemas['TemplateInfoResponse'];
type Variable = Schemas['TemplateVariableResponse'];
type VariableValue = string | number | boolean;

/** The Template choice for a company without departments or agents. */
const BLANK = '__blank__';

export const templatesKey = ['company', 'setup-templates'] as const;
export const companyKey = ['company', 'current'] as const;

/** The company name is asked for on its own; every other variable of a template is offered here. */
function tunableVariables(template: Template | undefined): Variable[] {
  return (template?.variables ?? []).filter((variable) => variable.name !== 'company_name');
}

function defaultsOf(template: Template | undefined): Record<string, VariableValue> {
  const values: Record<string, VariableValue> = {};
  for (const variable of tunableVariables(template)) {
    values[variable.name] = variable.default ?? (variable.var_type === 'bool' ? false : '');
  }
  return values;
}

/** Only what the person changed (the service applies the defaults itself); empty numbers are left out. */
function changedVariables(template: Template, values: Record<string, VariableValue>): Record<string, VariableValue> {
  const changed: Record<string, VariableValue> = {};
  for (const variable of tunableVariables(template)) {
    const value = values[variable.name];
    if (value === undefined || value === '' || value === variable.default) {
      continue;
    }
    changed[variable.name] = value;
  }
  return changed;
}

type TemplateDetail = Schemas['TemplateDetailResponse'];

/** The roster a template hires, department by department (its defaults), as a list a reader can follow. */
function TemplateRoster({ detail }: { detail: TemplateDetail }) {
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', paddingLeft: 0, margin: 0 }}>
      {detail.departments.map((department) => {
        const agents = detail.agents.filter((agent) => agent.department === department.name);
        return (
          <li key={department.name}>
            <Text size="sm" fw={600}>
              {humanize(department.name)}{' '}
              <Text span size="xs" c="dimmed">
                ({department.budget_percent}% of the budget
                {department.head_role ? `, led by the ${department.head_role}` : ''})
              </Text>
            </Text>
            <Text size="sm">
              {agents.length === 0
                ? 'No agents'
                : agents.map((agent) => `${agent.name ?? agent.role} (${humanize(agent.level)})`).join(', ')}
            </Text>
          </li>
        );
      })}
    </Stack>
  );
}

/** What a template sets up, before it is applied: its departments and the agents each one hires. */
function TemplatePreview({ template }: { template: Template }) {
  const detail = useQuery({
    queryKey: [...templatesKey, template.name],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/setup/templates/{template_name}', { params: { path: { template_name: template.name } } }),
      ),
  });
  return (
    <Paper withBorder p="md" radius="md" aria-label={`Preview: ${template.display_name}`} component="section">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {template.display_name}
        </Title>
        <Text size="sm">{template.description}</Text>
        <Group gap="xs">
          <Badge variant="light" color="indigo">
            {template.department_count} {template.department_count === 1 ? 'department' : 'departments'}
          </Badge>
          <Badge variant="light" color="indigo">
            {template.agent_count} {template.agent_count === 1 ? 'agent' : 'agents'}
          </Badge>
          <Badge variant="light" color="gray">
            Autonomy: {humanize(template.autonomy_level)}
          </Badge>
          <Badge variant="light" color="gray">
            Workflow: {humanize(template.workflow)}
          </Badge>
        </Group>
        {detail.error ? <ErrorNotice error={detail.error} title="The template's roster could not be loaded" /> : null}
        {detail.data ? <TemplateRoster detail={detail.data} /> : null}
        {!detail.data && !detail.error ? <Loading label="Loading the roster" /> : null}
        {template.skill_patterns.length > 0 ? (
          <Text size="sm" c="dimmed">
            Skills: {template.skill_patterns.map((skill) => skill.replace(/[-_]+/g, ' ')).join(', ')}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          The agents get names and models when the company is created; you can rename them and change their models in
          the Agents step.
        </Text>
      </Stack>
    </Paper>
  );
}

function VariableField({
  variable,
  value,
  onChange,
}: {
  variable: Variable;
  value: VariableValue | undefined;
  onChange: (value: VariableValue) => void;
}) {
  const label = humanize(variable.name);
  if (variable.var_type === 'bool') {
    return (
      <Checkbox
        label={label}
        description={variable.description}
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  }
  if (variable.var_type === 'int' || variable.var_type === 'float') {
    return (
      <NumberInput
        label={label}
        description={variable.description}
        required={variable.required}
        withAsterisk={false}
        min={0}
        allowDecimal={variable.var_type === 'float'}
        value={typeof value === 'number' || typeof value === 'string' ? value : ''}
        onChange={(next) => onChange(next)}
      />
    );
  }
  return (
    <TextInput
      label={label}
      description={variable.description}
      required={variable.required}
      withAsterisk={false}
      value={typeof value === 'string' ? value : String(value ?? '')}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/** Step 2: the company, from a template (previewed first) or blank. */
export function CompanyStep({ hasCompany, onDone }: { hasCompany: boolean; onDone: () => void }) {
  const client = useQueryClient();
  const templates = useQuery({ queryKey: templatesKey, queryFn: () => unwrap(api.GET('/api/v1/setup/templates')) });
  const company = useQuery({
    queryKey: companyKey,
    queryFn: () => unwrap(api.GET('/api/v1/company')),
    enabled: hasCompany,
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [templateName, setTemplateName] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, VariableValue>>({});
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // The first template is the suggestion; a company made earlier brings back its own name and template.
  useEffect(() => {
    if (templateName !== null || !templates.data || (hasCompany && !company.data && !company.error)) {
      return;
    }
    const previous = company.data?.template_name ?? null;
    const initial =
      templates.data.find((t) => t.name === previous)?.name ??
      (company.data && previous === null ? BLANK : (templates.data[0]?.name ?? BLANK));
    setTemplateName(initial);
    setValues(defaultsOf(templates.data.find((t) => t.name === initial)));
    if (company.data) {
      setName(company.data.name);
      setDescription(company.data.description);
    }
  }, [templates.data, company.data, company.error, hasCompany, templateName]);

  if (templates.error) {
    return <ErrorNotice error={templates.error} title="The templates could not be loaded" />;
  }
  if (!templates.data || templateName === null) {
    return <Loading label="Loading the templates" />;
  }

  const template = templates.data.find((t) => t.name === templateName);
  const chooseTemplate = (next: string) => {
    setTemplateName(next);
    setValues(defaultsOf(templates.data.find((t) => t.name === next)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!name.trim()) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const variables = template ? changedVariables(template, values) : {};
      const created = await unwrap(
        api.POST('/api/v1/setup/company', {
          body: {
            company_name: name.trim(),
            ...(description.trim() ? { description: description.trim() } : {}),
            ...(template ? { template_name: template.name } : {}),
            ...(Object.keys(variables).length > 0 ? { variables } : {}),
          },
        }),
      );
      notifyDone(
        template
          ? `${created.company_name} was created with ${created.agent_count} agents in ${created.department_count} departments`
          : `${created.company_name} was created`,
      );
      await Promise.all([
        client.invalidateQueries({ queryKey: setupStatusKey }),
        client.invalidateQueries({ queryKey: ['company'] }),
        client.invalidateQueries({ queryKey: ['agents'] }),
      ]);
      onDone();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <div>
          <Title order={2} size="h3">
            Create your company
          </Title>
          <Text size="sm" c="dimmed">
            A template brings departments and a team of agents with it; a blank company starts empty.
          </Text>
        </div>
        {hasCompany && company.data ? (
          <Alert color="blue" variant="light" role="note" title={`${company.data.name} already exists`}>
            Creating it again replaces its name and settings; a template also replaces its departments and agents.
            Continue to the next step to keep it as it is.
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack>
            <TextInput
              label="Company name"
              required
              withAsterisk={false}
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={checked && !name.trim() ? 'Give the company a name' : undefined}
            />
            <Textarea
              label="Description"
              description="Optional: what the company does"
              maxLength={1000}
              rows={3}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            <NativeSelect
              label="Template"
              value={templateName}
              onChange={(e) => chooseTemplate(e.currentTarget.value)}
              data={[
                ...templates.data.map((t) => ({
                  value: t.name,
                  label: `${t.display_name} (${t.agent_count} agents)`,
                })),
                { value: BLANK, label: 'Blank company (no departments or agents)' },
              ]}
            />
            {tunableVariables(template).map((variable) => (
              <VariableField
                key={variable.name}
                variable={variable}
                value={values[variable.name]}
                onChange={(value) => setValues((previous) => ({ ...previous, [variable.name]: value }))}
              />
            ))}
          </Stack>
          {template ? (
            <TemplatePreview template={template} />
          ) : (
            <Paper withBorder p="md" radius="md" component="section" aria-label="Preview: blank company">
              <Title order={3} size="h5">
                Blank company
              </Title>
              <Text size="sm">
                No departments and no agents. You can add them later; setup needs at least a company and a provider.
              </Text>
            </Paper>
          )}
        </SimpleGrid>
        {error ? <ErrorNotice error={error} title="The company was not created" /> : null}
        <Group justify="flex-end">
          {hasCompany ? (
            <Button variant="default" onClick={onDone}>
              Keep the company and continue
            </Button>
          ) : null}
          <Button type="submit" loading={busy}>
            Create company
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
