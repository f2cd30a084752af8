import { parseClientMessage, WsError } from './client-message';

function parse(value: unknown): ReturnType<typeof parseClientMessage> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return parseClientMessage(text, Buffer.byteLength(text));
}

describe('parseClientMessage', () => {
  it('should parse subscribe with channels and filters when both are well-formed', () => {
    expect(parse({ action: 'subscribe', channels: ['tasks'], filters: { project_id: 'p1', n: 2, ok: true } })).toEqual({
      ok: true,
      message: { action: 'subscribe', channels: ['tasks'], filters: { project_id: 'p1', n: 2, ok: true } },
    });
  });

  it('should treat absent, null and empty filters as no filter when subscribing', () => {
    for (const filters of [undefined, null, {}]) {
      expect(parse({ action: 'subscribe', channels: [], filters })).toEqual({
        ok: true,
        message: { action: 'subscribe', channels: [], filters: null },
      });
    }
  });

  it('should parse unsubscribe and ping when they are sent', () => {
    expect(parse({ action: 'unsubscribe', channels: ['a'] })).toEqual({
      ok: true,
      message: { action: 'unsubscribe', channels: ['a'] },
    });
    expect(parse({ action: 'ping' })).toEqual({ ok: true, message: { action: 'ping' } });
  });

  it.each([
    ['{not json', WsError.InvalidJson],
    ['', WsError.InvalidJson],
    ['[1,2]', WsError.ExpectedObject],
    ['"subscribe"', WsError.ExpectedObject],
    ['null', WsError.ExpectedObject],
    [{ action: 'subscribe' }, WsError.ChannelsNotList],
    [{ action: 'subscribe', channels: 'tasks' }, WsError.ChannelsNotList],
    [{ action: 'unsubscribe', channels: ['tasks', 3] }, WsError.ChannelsNotList],
    [{ action: 'subscribe', channels: [], filters: [] }, WsError.FiltersNotObject],
    [{ action: 'subscribe', channels: [], filters: 'x' }, WsError.FiltersNotObject],
    [{ action: 'subscribe', channels: [], filters: { a: { nested: 1 } } }, WsError.FilterBounds],
    [{ action: 'subscribe', channels: [], filters: { a: 'v'.repeat(257) } }, WsError.FilterBounds],
    [
      {
        action: 'subscribe',
        channels: [],
        filters: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])),
      },
      WsError.FilterBounds,
    ],
    [{ action: 'dance' }, WsError.UnknownAction],
    [{ channels: [] }, WsError.UnknownAction],
  ])('should answer %j with its error when it is invalid', (input, error) => {
    expect(parse(input)).toEqual({ ok: false, error });
  });

  it('should accept ten filter keys and 256-character values when at the bounds', () => {
    const filters = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v'.repeat(256)]));
    expect(parse({ action: 'subscribe', channels: ['tasks'], filters }).ok).toBe(true);
  });

  it('should refuse a message above 4096 bytes by its byte size when characters are multi-byte', () => {
    const text = JSON.stringify({ action: 'ping', pad: 'é'.repeat(2100) });
    expect(text.length).toBeLessThan(4096);
    expect(parseClientMessage(text, Buffer.byteLength(text))).toEqual({ ok: false, error: WsError.TooLarge });
  });
});
