import { ErrorCode } from '@app/domain';
import { testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, type TestApp } from '../support';

describe.each(testBackends())('meetings on %s', (backend) => {
  let t: TestApp;
  let ceo: string;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    ceo = await setupCeo(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should answer 401 without a token', async () => {
    const list = await t.http.get('/api/v1/meetings').expect(401);
    expectError(list.body, ErrorCode.Unauthorized, 'auth');
    const one = await t.http.get('/api/v1/meetings/meeting-1').expect(401);
    expectError(one.body, ErrorCode.Unauthorized, 'auth');
  });

  it('should list no meetings on a fresh database', async () => {
    const res = await t.http.get('/api/v1/meetings').set(bearer(ceo)).expect(200);
    expect(res.body).toMatchObject({ data: [], error: null, error_detail: null, success: true });
    expect(res.body.pagination).toEqual({ total: 0, offset: 0, limit: 50 });
  });

  it('should answer 404 (MeetingNotFound) for an unknown id', async () => {
    const res = await t.http.get('/api/v1/meetings/meeting-1').set(bearer(ceo)).expect(404);
    expectError(res.body, ErrorCode.MeetingNotFound, 'not_found');
  });
});
