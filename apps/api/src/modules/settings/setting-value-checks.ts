import { Injectable } from '@nestjs/common';

import { AppError, ErrorCode, type SettingDefinition, ValidationError } from '@app/domain';
import { validateSinkSettings } from '@app/platform';

import { SettingsSnapshot } from './settings-snapshot';

/**
 * Rules beyond a definition's type, enum, range and pattern, checked before a value is stored: the
 * log sink settings must keep every sink rule together (one of them is checked with the other's
 * running value, so a change cannot make the pair collide), and the budget's downgrade map must be
 * a list of alias pairs.
 */
@Injectable()
export class SettingValueChecks {
  constructor(private readonly snapshot: SettingsSnapshot) {}

  /** @throws ValidationError: the definition's own rule's code, or 2045 naming the field that breaks a sink rule. */
  check(definition: SettingDefinition, text: string): void {
    definition.validate?.(text);
    if (definition.namespace !== 'observability') {
      return;
    }
    if (definition.key === 'sink_overrides') {
      this.checkSinks(text, this.snapshot.value('observability', 'custom_sinks'));
    } else if (definition.key === 'custom_sinks') {
      this.checkSinks(this.snapshot.value('observability', 'sink_overrides'), text);
    }
  }

  /** Validates a candidate pair of sink settings (JSON text or parsed values). */
  checkSinks(sinkOverrides: unknown, customSinks: unknown): void {
    try {
      validateSinkSettings(sinkOverrides, customSinks);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.SinkConfigValidationError) {
        throw new ValidationError(error.message, ErrorCode.SinkSettingInvalid);
      }
      throw error;
    }
  }
}
