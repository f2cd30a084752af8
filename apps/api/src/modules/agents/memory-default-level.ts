import { MEMORY_LEVELS, type MemoryLevel } from '@app/domain';

import type { SettingsSnapshot } from '../settings';
import { FALLBACK_MEMORY_LEVEL } from './agents.mapper';

/**
 * The company's `memory.default_level`: the level of an agent whose settings name none, as the engine
 * applies it. The memory module declares the setting; where it is not declared (the memory module is
 * not loaded), the setting's own default.
 */
export function memoryDefaultLevel(settings: SettingsSnapshot): MemoryLevel {
  let level: unknown;
  try {
    level = settings.value<string>('memory', 'default_level');
  } catch {
    return FALLBACK_MEMORY_LEVEL;
  }
  return (MEMORY_LEVELS as readonly unknown[]).includes(level) ? (level as MemoryLevel) : FALLBACK_MEMORY_LEVEL;
}
