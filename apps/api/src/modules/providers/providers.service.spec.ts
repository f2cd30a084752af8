import { randomBytes } from 'node:crypto';

import { Channel, ConflictError, ErrorCode } from '@app/domain';
import type { ProviderEntity } from '@app/persistence';
import { EventBus, SecretCipher, secretKeyId } from '@app/platform';
import { actorContext, makeServiceUnderTest, providerRow, recordPublished } from '@app/testing';

import { AuditTrail } from '../audit';

import type { CreateProviderDto } from './dto/provider.dto';
import { ProviderRegistry } from './provider-registry';
import { ProviderUsage } from './provider-usage';
import { ProvidersRepository } from './providers.repository';
import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import { ProvidersService } from './providers.service';

const ACTOR = actorContext();
const KEY = randomBytes(32);
const SECRET = 'sk-very-secret-value';

function realCipher(): SecretCipher {
  return new SecretCipher({ currentKeyId: secretKeyId(KEY), keys: new Map([[secretKeyId(KEY), KEY]]), derived: false });
}

/**
 * The service over a repository kept in a map (inserts and compare-and-set updates land there), a
 * real cipher, a registry that reloads and a bus that records.
 */
function build(seed: ProviderEntity[] = []) {
  const cipher = realCipher();
  const unit = makeServiceUnderTest(ProvidersService, [{ provide: SecretCipher, useValue: cipher }]);
  const rows = new Map(seed.map((row) => [row.name, row]));
  const repository = unit.mock(ProvidersRepository);
  repository.findByName.mockImplementation((name) => Promise.resolve(rows.get(name) ?? null));
  repository.insert.mockImplementation((row) => Promise.resolve(rows.set(row.name, row)));
  repository.update.mockImplementation((row, expected) => {
    const ok = rows.get(row.name)?.version === expected;
    return Promise.resolve(ok && rows.set(row.name, row) !== undefined);
  });
  const registry = unit.mock(ProviderRegistry);
  registry.reload.mockResolvedValue();
  const trail = unit.mock(AuditTrail);
  trail.record.mockResolvedValue(null);
  const addresses = unit.mock(DiscoveryPolicyService);
  addresses.admit.mockResolvedValue();
  return {
    trail,
    addresses,
    sut: unit.sut,
    rows,
    cipher,
    repository,
    registry,
    usage: unit.mock(ProviderUsage),
    published: recordPublished(unit.mock(EventBus)),
  };
}

function createDto(overrides: Partial<CreateProviderDto> = {}): CreateProviderDto {
  return { name: 'acme', base_url: 'https://llm.example.com/v1/', api_key: SECRET, ...overrides };
}

describe(ProvidersService.name, () => {
  describe('create', () => {
    it('should store the secret sealed, answer indicators only and announce when the provider is valid', async () => {
      const { sut, rows, cipher, registry, published } = build();

      const dto = await sut.create(ACTOR, createDto({ models: [{ id: 'acme-1', alias: 'medium' }] }));

      expect(dto).toMatchObject({ name: 'acme', auth_type: 'api_key', base_url: 'https://llm.example.com/v1' });
      expect(dto).toMatchObject({ has_api_key: true, has_subscription_token: false });
      expect(JSON.stringify(dto)).not.toContain(SECRET);
      const stored = rows.get('acme');
      expect(stored).toMatchObject({ version: 1, secretsKeyId: secretKeyId(KEY) });
      expect(stored?.secrets).not.toContain(SECRET);
      expect(JSON.parse(cipher.open(stored?.secrets ?? ''))).toEqual({ apiKey: SECRET });
      expect(registry.reload).toHaveBeenCalledTimes(1);
      expect(published).toEqual([
        expect.objectContaining({
          channel: Channel.Providers,
          event_type: 'provider.created',
          payload: { name: 'acme', actor: 'alice' },
        }),
      ]);
    });

    it('should take auth type and base URL from the preset when the request leaves them out', async () => {
      const { sut } = build();

      const dto = await sut.create(ACTOR, { name: 'local', preset_name: 'ollama' });

      expect(dto).toMatchObject({ auth_type: 'none', base_url: 'http://localhost:11434', driver: 'ollama' });
    });

    it('should refuse with 4001 and write nothing when the name is taken', async () => {
      const { sut, repository, published } = build([providerRow({ name: 'acme' })]);

      await expect(sut.create(ACTOR, createDto())).rejects.toMatchObject({ code: ErrorCode.DuplicateRecord });
      expect(repository.insert).not.toHaveBeenCalled();
      expect(published).toEqual([]);
    });

    it('should refuse with 4001 when a concurrent create wins the insert', async () => {
      const { sut, rows, repository } = build();
      repository.insert.mockImplementation((row) => {
        rows.set(row.name, providerRow({ name: row.name }));
        return Promise.reject(new Error('UNIQUE constraint failed'));
      });

      await expect(sut.create(ACTOR, createDto())).rejects.toMatchObject({ code: ErrorCode.DuplicateRecord });
    });

    it.each([
      ['the name breaks the naming rule', { name: 'Acme_1' }, ErrorCode.ProviderNameInvalid],
      ['the preset is unknown', { preset_name: 'skynet' }, ErrorCode.ProviderPresetNotFound],
      [
        'the fallback names the provider itself',
        { degradation: { fallback_providers: ['acme'] } },
        ErrorCode.ProviderFallbackInvalid,
      ],
      [
        'a subscription token comes without the terms',
        { subscription_token: 'tok', api_key: undefined },
        ErrorCode.ProviderAuthInvalid,
      ],
      ['a custom header value comes without its name', { custom_header_value: 'v' }, ErrorCode.ProviderAuthInvalid],
      ['a model id is listed twice', { models: [{ id: 'm' }, { id: 'm' }] }, ErrorCode.ProviderModelsInvalid],
      [
        'no endpoint can be resolved',
        { base_url: undefined, preset_name: 'azure' },
        ErrorCode.ProviderEndpointRequired,
      ],
      ['the base URL carries credentials', { base_url: 'https://u:p@llm.example.com' }, ErrorCode.ProviderUrlInvalid],
    ])('should refuse with its code and write nothing when %s', async (_, overrides, code) => {
      const { sut, repository } = build();

      await expect(sut.create(ACTOR, createDto(overrides))).rejects.toMatchObject({ code });
      expect(repository.insert).not.toHaveBeenCalled();
    });
  });

  describe('update', () => {
    /** A stored provider with an api key and a quota, created through the service itself. */
    async function buildWithProvider() {
      const unit = build();
      await unit.sut.create(ACTOR, createDto({ quota: { requests_per_minute: 10 } }));
      unit.published.length = 0;
      return unit;
    }

    it('should change the given fields, keep the omitted ones and bump the version when the update is valid', async () => {
      const { sut, rows, published, trail } = await buildWithProvider();
      trail.record.mockClear();

      const dto = await sut.update(ACTOR, 'acme', { family: 'gpt', quota: { requests_per_day: 100 } });

      // No secret changed: nothing for the audit trail.
      expect(trail.record).not.toHaveBeenCalled();
      expect(dto).toMatchObject({ family: 'gpt', has_api_key: true, base_url: 'https://llm.example.com/v1' });
      expect(dto.quota).toMatchObject({ requests_per_minute: 10, requests_per_day: 100 });
      expect(rows.get('acme')?.version).toBe(2);
      expect(published).toEqual([expect.objectContaining({ event_type: 'provider.updated' })]);
    });

    it('should drop a secret when its clear flag is set', async () => {
      const { sut, rows, trail } = await buildWithProvider();

      const dto = await sut.update(ACTOR, 'acme', { clear_api_key: true });

      expect(dto.has_api_key).toBe(false);
      expect(rows.get('acme')?.secrets).toBeNull();
      expect(trail.record).toHaveBeenLastCalledWith({
        actor: ACTOR.username,
        action: 'provider.secret_changed',
        target: 'provider:acme',
        outcome: 'success',
        details: { changed_fields: ['clear_api_key'] },
      });
    });

    it.each([null, '********'])('should keep the stored secret for %p and record no secret change', async (value) => {
      const { sut, rows, trail, cipher } = await buildWithProvider();
      const sealed = rows.get('acme')?.secrets;
      trail.record.mockClear();

      const dto = await sut.update(ACTOR, 'acme', { api_key: value as string });

      expect(dto.has_api_key).toBe(true);
      expect(cipher.open(rows.get('acme')!.secrets!)).toBe(cipher.open(sealed!));
      expect(trail.record).not.toHaveBeenCalled();
    });

    it.each([null, '********', undefined])(
      'should refuse a move of base_url that keeps the stored key (%p): 2028, nothing written',
      async (value) => {
        const { sut, repository } = await buildWithProvider();

        await expect(
          sut.update(ACTOR, 'acme', { base_url: 'https://elsewhere.example/v1', api_key: value as string }),
        ).rejects.toMatchObject({ code: ErrorCode.ProviderCredentialsRequired });
        expect(repository.update).not.toHaveBeenCalled();
      },
    );

    it('should refuse with the generic 2000 when a secret and its clear flag come together', async () => {
      const { sut, repository } = await buildWithProvider();

      await expect(sut.update(ACTOR, 'acme', { api_key: 'new', clear_api_key: true })).rejects.toMatchObject({
        code: ErrorCode.ValidationError,
      });
      expect(repository.update).not.toHaveBeenCalled();
    });

    it('should refuse with 4002 and announce nothing when the row changed in between', async () => {
      const { sut, repository, published } = await buildWithProvider();
      repository.update.mockResolvedValue(false);

      await expect(sut.update(ACTOR, 'acme', { family: 'gpt' })).rejects.toMatchObject({
        code: ErrorCode.VersionConflict,
      });
      expect(published).toEqual([]);
    });

    it('should refuse with 3020 when the provider is unknown', async () => {
      const { sut } = build();

      await expect(sut.update(ACTOR, 'ghost', { family: 'gpt' })).rejects.toMatchObject({
        code: ErrorCode.ProviderNotFound,
      });
    });
  });

  describe('replaceModels', () => {
    it('should store the new list and announce its size and reason when the refs are unique', async () => {
      const { sut, published } = build([providerRow({ name: 'acme' })]);
      const model = { ...(await sut.record('acme')).models[0], id: 'acme-2', alias: null };

      const record = await sut.replaceModels(ACTOR, 'acme', [model], 'discovery');

      expect(record.models.map((m) => m.id)).toEqual(['acme-2']);
      expect(published).toEqual([
        expect.objectContaining({
          event_type: 'provider.models_changed',
          payload: { name: 'acme', actor: 'alice', reason: 'discovery', model_count: 1 },
        }),
      ]);
    });

    it('should refuse with 2020 when two models share an id', async () => {
      const { sut, repository } = build([providerRow({ name: 'acme' })]);
      const [model] = (await sut.record('acme')).models;

      await expect(sut.replaceModels(ACTOR, 'acme', [model, model], 'pull')).rejects.toMatchObject({
        code: ErrorCode.ProviderModelsInvalid,
      });
      expect(repository.update).not.toHaveBeenCalled();
    });
  });

  describe('delete', () => {
    it('should refuse with 4012 naming the agents when agents use its models', async () => {
      const { sut, usage, repository } = build([providerRow({ name: 'acme' })]);
      usage.agentsUsing.mockResolvedValue(['Ada', 'Grace']);

      const error = await sut.delete(ACTOR, 'acme').catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({
        code: ErrorCode.ProviderInUse,
        message: expect.stringContaining('"Ada", "Grace"'),
      });
      expect(repository.delete).not.toHaveBeenCalled();
    });

    it('should delete, reload the registry and announce when nobody uses it', async () => {
      const { sut, usage, repository, registry, published } = build([providerRow({ name: 'acme' })]);
      usage.agentsUsing.mockResolvedValue([]);
      repository.delete.mockResolvedValue(true);

      await sut.delete(ACTOR, 'acme');

      expect(repository.delete).toHaveBeenCalledWith('acme');
      expect(registry.reload).toHaveBeenCalledTimes(1);
      expect(published).toEqual([expect.objectContaining({ event_type: 'provider.deleted' })]);
    });

    it('should refuse with 3020 when the provider is unknown', async () => {
      const { sut } = build();

      await expect(sut.delete(ACTOR, 'ghost')).rejects.toMatchObject({ code: ErrorCode.ProviderNotFound });
    });
  });

  it('should refuse with 3022 when a preset is unknown', () => {
    const { sut } = build();

    expect(() => sut.preset('skynet')).toThrow(expect.objectContaining({ code: ErrorCode.ProviderPresetNotFound }));
  });

  it('should page the stored providers in the requested window when listing', async () => {
    const { sut, repository } = build();
    repository.page.mockResolvedValue({ items: [providerRow({ name: 'acme' })], total: 3 });

    const page = await sut.list({ offset: 2, limit: 1 });

    expect(repository.page).toHaveBeenCalledWith(2, 1);
    expect(page).toMatchObject({ total: 3, offset: 2, limit: 1, items: [{ name: 'acme' }] });
  });
});
