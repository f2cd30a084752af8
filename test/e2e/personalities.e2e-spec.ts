import { DEFAULT_PERSONALITY } from '@app/domain';
import { EventBus, type ReceivedEvent } from '@app/platform';
import { testBackends } from '@app/testing';
import { bearer, createCompany, expectError, setupCeo, startTestApp, type TestApp, userWithRole } from '../support';

const HIGH_LIMITS = { SYNTHORG_RATE_LIMIT_AUTH_PER_MINUTE: '1000', SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10000' };

const PERSONALITY_FIELDS = [
  'traits',
  'communication_style',
  'risk_tolerance',
  'creativity',
  'description',
  'openness',
  'conscientiousness',
  'extraversion',
  'agreeableness',
  'stress_response',
  'decision_making',
  'collaboration',
  'verbosity',
  'conflict_approach',
];

describe.each(testBackends())('personality presets on %s', (backend) => {
  let t: TestApp;
  let ceo: string;
  let observer: string;
  let pair: string;
  const events: ReceivedEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ backend, env: HIGH_LIMITS });
    t.app.get(EventBus).subscribe((e) => events.push(e));
    ceo = await setupCeo(t);
    observer = await userWithRole(t, ceo, 'observer');
    pair = await userWithRole(t, ceo, 'pair_programmer');
  });

  afterAll(async () => {
    await t.close();
  });

  describe('reading', () => {
    it('should list the 20 built-in presets', async () => {
      const res = await t.http.get('/api/v1/personalities/presets').set(bearer(observer)).expect(200);
      expect(res.body).toMatchObject({ error: null, error_detail: null, success: true });
      const presets = res.body.data as Array<{ name: string; description: string; traits: string[]; source: string }>;
      expect(presets).toHaveLength(20);
      for (const preset of presets) {
        expect(preset.source).toBe('builtin');
        expect(preset.description.length).toBeGreaterThan(0);
        expect(Array.isArray(preset.traits)).toBe(true);
      }
      expect(new Set(presets.map((p) => p.name)).size).toBe(20);
      expect(presets.map((p) => p.name)).toEqual(expect.arrayContaining(['pragmatic_builder', 'team_diplomat']));
    });

    it('should return one preset with every dimension, its name case-insensitive', async () => {
      const res = await t.http.get('/api/v1/personalities/presets/pragmatic_builder').set(bearer(observer)).expect(200);
      const preset = res.body.data as Record<string, unknown>;
      expect(preset).toMatchObject({
        name: 'pragmatic_builder',
        source: 'builtin',
        created_at: null,
        updated_at: null,
      });
      for (const field of PERSONALITY_FIELDS) {
        expect(preset).toHaveProperty(field);
      }
      expect(preset.openness).toEqual(expect.any(Number));
      expect(preset.openness as number).toBeGreaterThanOrEqual(0);
      expect(preset.openness as number).toBeLessThanOrEqual(1);
      const upper = await t.http.get('/api/v1/personalities/presets/PRAGMATIC_BUILDER').set(bearer(ceo)).expect(200);
      expect(upper.body.data).toEqual(preset);
    });

    it('should answer 404 (3019) for an unknown preset', async () => {
      const res = await t.http.get('/api/v1/personalities/presets/grumpy_wizard').set(bearer(ceo)).expect(404);
      expectError(res.body, 3019, 'not_found');
    });

    it('should serve the JSON schema of a personality', async () => {
      const res = await t.http.get('/api/v1/personalities/schema').set(bearer(observer)).expect(200);
      const schema = res.body.data as {
        type: string;
        additionalProperties: boolean;
        properties: Record<string, Record<string, unknown>>;
      };
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties).sort()).toEqual([...PERSONALITY_FIELDS].sort());
      expect(schema.properties.openness).toMatchObject({ type: 'number', minimum: 0, maximum: 1, default: 0.5 });
      expect(schema.properties.verbosity).toMatchObject({
        enum: ['terse', 'balanced', 'verbose'],
        default: 'balanced',
      });
    });

    it('should answer 401 without a token', async () => {
      const res = await t.http.get('/api/v1/personalities/presets').expect(401);
      expectError(res.body, 1000, 'auth');
    });
  });

  describe('custom presets', () => {
    it('should refuse creation without a token (401) and to an observer (403)', async () => {
      const body = { name: 'night_owl', traits: ['nocturnal'], openness: 0.9 };
      expectError((await t.http.post('/api/v1/personalities/presets').send(body).expect(401)).body, 1000);
      const denied = await t.http.post('/api/v1/personalities/presets').set(bearer(observer)).send(body).expect(403);
      expectError(denied.body, 1001, 'auth');
      await t.http.get('/api/v1/personalities/presets/night_owl').set(bearer(ceo)).expect(404);
    });

    it('should create a preset with unset dimensions at their defaults (201)', async () => {
      const res = await t.http
        .post('/api/v1/personalities/presets')
        .set(bearer(ceo))
        .send({ name: 'night_owl', traits: ['nocturnal'], openness: 0.9 })
        .expect(201);
      expect(res.body).toMatchObject({ error: null, error_detail: null, success: true });
      expect(res.body.data).toEqual({
        name: 'night_owl',
        source: 'custom',
        traits: ['nocturnal'],
        communication_style: 'neutral',
        risk_tolerance: 'medium',
        creativity: 'medium',
        description: '',
        openness: 0.9,
        conscientiousness: 0.5,
        extraversion: 0.5,
        agreeableness: 0.5,
        stress_response: 0.5,
        decision_making: 'consultative',
        collaboration: 'team',
        verbosity: 'balanced',
        conflict_approach: 'collaborate',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const read = await t.http.get('/api/v1/personalities/presets/night_owl').set(bearer(observer)).expect(200);
      expect(read.body.data).toEqual(res.body.data);
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            event_type: 'personality.created',
            payload: { name: 'night_owl', source: 'custom' },
          }),
        ]),
      );
    });

    it('should let a pair programmer create one too, its name normalised', async () => {
      const res = await t.http
        .post('/api/v1/personalities/presets')
        .set(bearer(pair))
        .send({ name: '  Early_Bird ', verbosity: 'terse', description: 'Up at dawn.' })
        .expect(201);
      expect(res.body.data).toMatchObject({ name: 'early_bird', verbosity: 'terse', description: 'Up at dawn.' });
    });

    it('should answer 409 (4001) for an existing custom or built-in name', async () => {
      for (const name of ['night_owl', 'NIGHT_OWL', 'pragmatic_builder']) {
        const res = await t.http.post('/api/v1/personalities/presets').set(bearer(ceo)).send({ name }).expect(409);
        expectError(res.body, 4001, 'conflict');
      }
    });

    it('should create only one of two concurrent presets with the same name (201 + 409)', async () => {
      const results = await Promise.all(
        [0.1, 0.2].map((openness) =>
          t.http.post('/api/v1/personalities/presets').set(bearer(ceo)).send({ name: 'racer', openness }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expectError(results.find((r) => r.status === 409)?.body as Record<string, unknown>, 4001, 'conflict');
      await t.http.delete('/api/v1/personalities/presets/racer').set(bearer(ceo)).expect(200);
    });

    it.each([
      ['an out-of-range dimension', { name: 'wild_one', openness: 1.5 }],
      ['a wrong enum value', { name: 'wild_one', verbosity: 'shouty' }],
      ['an unknown field', { name: 'wild_one', charisma: 0.5 }],
      ['a malformed name', { name: 'Bad Name!' }],
      ['a name starting with a digit', { name: '1st_place' }],
      ['a missing name', { openness: 0.5 }],
      ['a non-string name', { name: 42 }],
      ['an empty trait', { name: 'wild_one', traits: [''] }],
    ])('should answer 400 (2001) for %s', async (_label, body) => {
      const res = await t.http.post('/api/v1/personalities/presets').set(bearer(ceo)).send(body).expect(400);
      expectError(res.body, 2001, 'validation');
      await t.http.get('/api/v1/personalities/presets/wild_one').set(bearer(ceo)).expect(404);
    });

    it('should list custom presets after the built-ins', async () => {
      const res = await t.http.get('/api/v1/personalities/presets').set(bearer(ceo)).expect(200);
      const presets = res.body.data as Array<{ name: string; source: string }>;
      expect(presets).toHaveLength(22);
      expect(presets.slice(0, 20).every((p) => p.source === 'builtin')).toBe(true);
      expect(presets.slice(20)).toEqual([
        expect.objectContaining({ name: 'early_bird', source: 'custom', description: 'Up at dawn.' }),
        expect.objectContaining({ name: 'night_owl', source: 'custom', traits: ['nocturnal'] }),
      ]);
    });

    it('should replace a custom preset (200)', async () => {
      const res = await t.http
        .put('/api/v1/personalities/presets/night_owl')
        .set(bearer(pair))
        .send({ traits: ['nocturnal', 'focused'], openness: 0.7, verbosity: 'verbose', description: 'Works late.' })
        .expect(200);
      expect(res.body.data).toMatchObject({
        name: 'night_owl',
        source: 'custom',
        traits: ['nocturnal', 'focused'],
        openness: 0.7,
        verbosity: 'verbose',
        description: 'Works late.',
      });
      const read = await t.http.get('/api/v1/personalities/presets/night_owl').set(bearer(ceo)).expect(200);
      expect(read.body.data).toMatchObject({ openness: 0.7, verbosity: 'verbose', traits: ['nocturnal', 'focused'] });
      expect(Date.parse(read.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(read.body.data.created_at));
    });

    it('should refuse invalid updates, a rename, and observers', async () => {
      const bad = await t.http
        .put('/api/v1/personalities/presets/night_owl')
        .set(bearer(ceo))
        .send({ openness: -0.1 })
        .expect(400);
      expectError(bad.body, 2001);
      const rename = await t.http
        .put('/api/v1/personalities/presets/night_owl')
        .set(bearer(ceo))
        .send({ name: 'day_owl' })
        .expect(400);
      expectError(rename.body, 2001);
      await t.http.put('/api/v1/personalities/presets/night_owl').set(bearer(observer)).send({}).expect(403);
      const read = await t.http.get('/api/v1/personalities/presets/night_owl').set(bearer(ceo)).expect(200);
      expect(read.body.data.openness).toBe(0.7);
    });

    it('should validate bodies that are absent, not JSON or not an object like any other body (400, 2001)', async () => {
      const url = '/api/v1/personalities/presets';
      const noBody = await t.http.post(url).set(bearer(ceo)).expect(400);
      expectError(noBody.body, 2001);
      const text = await t.http.post(url).set(bearer(ceo)).set('Content-Type', 'text/plain').send('name=x').expect(400);
      expectError(text.body, 2001);
      const form = await t.http.post(url).set(bearer(ceo)).type('form').send({ name: 'formed' }).expect(400);
      expectError(form.body, 2001);
      const array = await t.http
        .post(url)
        .set(bearer(ceo))
        .send([{ name: 'listed' }])
        .expect(400);
      expectError(array.body, 2001);
      await t.http.post(url).set(bearer(ceo)).send({ name: 'scratch_pad', openness: 0.9 }).expect(201);
      const listed = await t.http.put(`${url}/scratch_pad`).set(bearer(ceo)).send([1]).expect(400);
      expectError(listed.body, 2001);
      // As with a DTO body, an absent body is an empty object: a replacement with every default.
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await t.http.put(`${url}/scratch_pad`).set(bearer(ceo)).set('Content-Type', type).send('a=b');
        expect(res.status).toBe(200);
      }
      const empty = await t.http.put(`${url}/scratch_pad`).set(bearer(ceo)).expect(200);
      expect(empty.body.data.openness).toBe(DEFAULT_PERSONALITY.openness);
      await t.http.delete(`${url}/scratch_pad`).set(bearer(ceo)).expect(200);
    });

    it('should answer 409 (4011) for a change to a built-in and 404 for an unknown preset', async () => {
      const builtin = await t.http
        .put('/api/v1/personalities/presets/pragmatic_builder')
        .set(bearer(ceo))
        .send({ openness: 0.1 })
        .expect(409);
      expectError(builtin.body, 4011, 'conflict');
      const unknown = await t.http
        .put('/api/v1/personalities/presets/grumpy_wizard')
        .set(bearer(ceo))
        .send({ openness: 0.1 })
        .expect(404);
      expectError(unknown.body, 3019, 'not_found');
      const deleteBuiltin = await t.http
        .delete('/api/v1/personalities/presets/pragmatic_builder')
        .set(bearer(ceo))
        .expect(409);
      expectError(deleteBuiltin.body, 4011, 'conflict');
      const deleteUnknown = await t.http
        .delete('/api/v1/personalities/presets/grumpy_wizard')
        .set(bearer(ceo))
        .expect(404);
      expectError(deleteUnknown.body, 3019);
    });
  });

  describe('presets in the setup wizard', () => {
    it('should offer built-in and custom presets as name and description', async () => {
      const res = await t.http.get('/api/v1/setup/personality-presets').set(bearer(observer)).expect(200);
      const presets = res.body.data.presets as Array<Record<string, unknown>>;
      expect(presets).toHaveLength(22);
      for (const preset of presets) {
        expect(Object.keys(preset).sort()).toEqual(['description', 'name']);
      }
      expect(presets).toEqual(
        expect.arrayContaining([
          { name: 'night_owl', description: 'Works late.' },
          { name: 'pragmatic_builder', description: expect.any(String) },
        ]),
      );
    });

    it('should apply a custom preset to a setup agent', async () => {
      await createCompany(t, ceo, 'solo_founder');
      const res = await t.http
        .put('/api/v1/setup/agents/0/personality')
        .set(bearer(ceo))
        .send({ personality_preset: 'Night_Owl' })
        .expect(200);
      expect(res.body.data.personality_preset).toBe('night_owl');
      const agent = await t.http
        .get(`/api/v1/agents/${encodeURIComponent(res.body.data.name as string)}`)
        .set(bearer(ceo))
        .expect(200);
      expect(agent.body.data.personality_preset).toBe('night_owl');
      expect(agent.body.data.personality).toMatchObject({ openness: 0.7, traits: ['nocturnal', 'focused'] });
    });
  });

  describe('deleting', () => {
    it('should delete a custom preset (200, data null), then answer 404 for it', async () => {
      const res = await t.http.delete('/api/v1/personalities/presets/night_owl').set(bearer(ceo)).expect(200);
      expect(res.body).toEqual({ data: null, error: null, error_detail: null, success: true });
      const gone = await t.http.get('/api/v1/personalities/presets/night_owl').set(bearer(ceo)).expect(404);
      expectError(gone.body, 3019);
      await t.http.delete('/api/v1/personalities/presets/night_owl').set(bearer(ceo)).expect(404);
      await t.http.delete('/api/v1/personalities/presets/early_bird').set(bearer(observer)).expect(403);
      const list = await t.http.get('/api/v1/personalities/presets').set(bearer(ceo)).expect(200);
      expect((list.body.data as Array<{ name: string }>).map((p) => p.name)).not.toContain('night_owl');
      expect(list.body.data).toHaveLength(21);
    });

    it('should leave an agent that used the deleted preset with its personality', async () => {
      const roster = await t.http.get('/api/v1/setup/agents').set(bearer(ceo)).expect(200);
      const name = roster.body.data.agents[0].name as string;
      const agent = await t.http
        .get(`/api/v1/agents/${encodeURIComponent(name)}`)
        .set(bearer(ceo))
        .expect(200);
      expect(agent.body.data.personality).toMatchObject({ openness: 0.7 });
    });

    it('should let the name be reused after deletion', async () => {
      await t.http
        .post('/api/v1/personalities/presets')
        .set(bearer(ceo))
        .send({ name: 'night_owl', openness: 0.2 })
        .expect(201);
    });
  });
});
