import { HumanRole } from '@app/domain';

import {
  activeChannels,
  applySubscribe,
  applyUnsubscribe,
  canSubscribe,
  type ChannelSubscriptions,
  matchesFilters,
} from './subscriptions';

describe('subscriptions', () => {
  it('should grant known channels and ignore unknown and internal ones when subscribing', () => {
    const subs: ChannelSubscriptions = new Map();
    const granted = applySubscribe(
      subs,
      ['tasks', 'nope', 'internal.cache', 'agents', 'tasks'],
      null,
      HumanRole.Observer,
    );
    expect(granted).toEqual(['tasks', 'agents']);
    expect(activeChannels(subs)).toEqual(['agents', 'tasks']);
  });

  it.each([
    [HumanRole.Ceo, true],
    [HumanRole.Manager, true],
    [HumanRole.PairProgrammer, false],
    [HumanRole.BoardMember, false],
    [HumanRole.Observer, false],
  ])('should grant the budget channel to %s only when the role manages money (%s)', (role, allowed) => {
    expect(canSubscribe('budget', role)).toBe(allowed);
    const subs: ChannelSubscriptions = new Map();
    applySubscribe(subs, ['budget'], null, role);
    expect(activeChannels(subs)).toEqual(allowed ? ['budget'] : []);
  });

  it('should replace a channel filter when the channel is subscribed again', () => {
    const subs: ChannelSubscriptions = new Map();
    applySubscribe(subs, ['tasks'], { project_id: 'p1' }, HumanRole.Ceo);
    applySubscribe(subs, ['tasks', 'agents'], { project_id: 'p2' }, HumanRole.Ceo);
    expect(subs.get('tasks')).toEqual({ project_id: 'p2' });
    applySubscribe(subs, ['tasks'], null, HumanRole.Ceo);
    expect(subs.get('tasks')).toBeNull();
  });

  it('should remove only active channels when unsubscribing', () => {
    const subs: ChannelSubscriptions = new Map();
    applySubscribe(subs, ['tasks', 'agents'], null, HumanRole.Ceo);
    expect(applyUnsubscribe(subs, ['tasks', 'budget', 'tasks'])).toEqual(['tasks']);
    expect(activeChannels(subs)).toEqual(['agents']);
  });

  it('should match only when every filter key is present with an equal value', () => {
    const payload = { project_id: 'p1', priority: 2, done: false, extra: 'x' };
    expect(matchesFilters(null, payload)).toBe(true);
    expect(matchesFilters({ project_id: 'p1', priority: 2, done: false }, payload)).toBe(true);
    expect(matchesFilters({ project_id: 'p2' }, payload)).toBe(false);
    expect(matchesFilters({ priority: '2' }, payload)).toBe(false);
    expect(matchesFilters({ missing: null }, payload)).toBe(false);
    expect(matchesFilters({ missing: null }, { missing: null })).toBe(true);
    expect(matchesFilters({ toString: 'x' }, payload)).toBe(false);
  });
});
