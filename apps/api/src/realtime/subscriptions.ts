import { Channel, type HumanRole } from '@app/domain';

import type { SubscriptionFilters } from './client-message';
import { BUDGET_ROLES, KNOWN_CHANNELS } from './realtime.constants';

/** A connection's active channels, each with the filters it was subscribed with (null: everything). */
export type ChannelSubscriptions = Map<string, SubscriptionFilters | null>;

/** Whether a role may receive a channel at all (unknown and internal channels: never). */
export function canSubscribe(channel: string, role: HumanRole): boolean {
  if (!KNOWN_CHANNELS.has(channel)) {
    return false;
  }
  return channel !== Channel.Budget || BUDGET_ROLES.includes(role);
}

/**
 * Adds the grantable channels, each with the message's filters (replacing earlier filters for that
 * channel). Channels the role may not have are skipped silently, as unknown ones are. Returns the
 * channels that were added or updated.
 */
export function applySubscribe(
  subscriptions: ChannelSubscriptions,
  requested: readonly string[],
  filters: SubscriptionFilters | null,
  role: HumanRole,
): string[] {
  const granted: string[] = [];
  for (const channel of new Set(requested)) {
    if (canSubscribe(channel, role)) {
      subscriptions.set(channel, filters);
      granted.push(channel);
    }
  }
  return granted;
}

/** Removes the channels; returns those that were active. */
export function applyUnsubscribe(subscriptions: ChannelSubscriptions, requested: readonly string[]): string[] {
  return [...new Set(requested)].filter((channel) => subscriptions.delete(channel));
}

export function activeChannels(subscriptions: ChannelSubscriptions): string[] {
  return [...subscriptions.keys()].sort();
}

/** Every filter key must be present in the payload with an equal (===) value. */
export function matchesFilters(filters: SubscriptionFilters | null, payload: Record<string, unknown>): boolean {
  if (!filters) {
    return true;
  }
  for (const key in filters) {
    if (!Object.hasOwn(payload, key) || payload[key] !== filters[key]) {
      return false;
    }
  }
  return true;
}
