import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';
import { LOCAL_MODEL_PARAM_RANGES, type LocalModelParamName } from '@app/model-params';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';

type Params = Schemas['LocalModelParams'];

/** What each launch parameter means to the person tuning it. */
const LABELS: Record<LocalModelParamName, { label: string; short: string; hint: string }> = {
  num_ctx: { label: 'Context window (tokens)', short: 'context', hint: 'Tokens the model keeps in view' },
  num_gpu_layers: { label: 'GPU layers', short: 'GPU layers', hint: 'Layers offloaded to the GPU; 0 runs on the CPU' },
  num_threads: { label: 'CPU threads', short: 'threads', hint: 'Threads the runtime computes with' },
  num_batch: { label: 'Batch size', short: 'batch', hint: 'Prompt tokens processed at once' },
  repeat_penalty: { label: 'Repeat penalty', short: 'repeat penalty', hint: 'Penalty on repeated tokens; 1 is none' },
};

const number = (n: number) => n.toLocaleString('en-US');

/** "context 8,192 · GPU layers 20", or that the runtime's defaults apply. */
export function launchSummary(params: Params | null | undefined): string {
  const parts = LOCAL_MODEL_PARAM_RANGES.flatMap((range) => {
    const value = params?.[range.name];
    return value === null || value === undefined ? [] : [`${LABELS[range.name].short} ${number(value)}`];
  });
  return parts.length > 0 ? parts.join(' · ') : 'Runtime defaults';
}

type Draft = Record<LocalModelParamName, number | ''>;

/**
 * The problem with one value, as the API states its range (LOCAL_MODEL_PARAM_RANGES), or null.
 * Empty is always fine: the runtime's default.
 */
export function launchProblem(name: LocalModelParamName, value: number | ''): string | null {
  if (value === '') {
    return null;
  }
  const range = LOCAL_MODEL_PARAM_RANGES.find((r) => r.name === name);
  if (!range) {
    return null;
  }
  const valid = Number.isFinite(value) && (!range.integer || Number.isInteger(value));
  if (valid && value >= range.min && value <= range.max) {
    return null;
  }
  return `${range.integer ? 'A whole number' : 'A number'} from ${number(range.min)} to ${number(range.max)}, or empty for the runtime’s default`;
}

/**
 * Launch parameters of one local model (PUT /providers/{name}/models/{model_id}/config): the current
 * values, checked against the API's ranges before saving; a refusal shows the API's own message.
 */
export function LaunchSettingsDialog({
  provider,
  model,
  onClose,
}: {
  provider: string;
  model: { id: string; local_params: Params | null };
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => {
    const initial = {} as Draft;
    for (const range of LOCAL_MODEL_PARAM_RANGES) {
      initial[range.name] = model.local_params?.[range.name] ?? '';
    }
    return initial;
  });
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const invalid = LOCAL_MODEL_PARAM_RANGES.some((range) => launchProblem(range.name, draft[range.name]) !== null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (invalid) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const local_params: Params = {};
      for (const range of LOCAL_MODEL_PARAM_RANGES) {
        const value = draft[range.name];
        local_params[range.name] = value === '' ? null : value;
      }
      await unwrap(
        api.PUT('/api/v1/providers/{name}/models/{model_id}/config', {
          params: { path: { name: provider, model_id: model.id } },
          body: { local_params },
        }),
      );
      notifyDone(`The launch settings of ${model.id} were saved`);
      await client.invalidateQueries({ queryKey: ['providers'] });
      onClose();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Launch settings of ${model.id}`} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            How {provider} starts this model. Leave a field empty to keep the runtime’s default.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {LOCAL_MODEL_PARAM_RANGES.map((range) => {
              const problem = checked ? launchProblem(range.name, draft[range.name]) : null;
              return (
                <NumberInput
                  key={range.name}
                  label={LABELS[range.name].label}
                  description={`${LABELS[range.name].hint} (${number(range.min)} to ${number(range.max)})`}
                  placeholder="Runtime default"
                  min={range.min}
                  max={range.max}
                  clampBehavior="none"
                  allowDecimal={!range.integer}
                  allowNegative={false}
                  decimalScale={range.integer ? undefined : 2}
                  step={range.integer ? 1 : 0.05}
                  value={draft[range.name]}
                  error={problem}
                  onChange={(value) =>
                    setDraft((d) => ({
                      ...d,
                      [range.name]: typeof value === 'number' ? value : value === '' ? '' : Number(value),
                    }))
                  }
                />
              );
            })}
          </SimpleGrid>
          {error ? <ErrorNotice error={error} title="The launch settings were not saved" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save launch settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
