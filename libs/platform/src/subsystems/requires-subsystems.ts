import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { ServiceUnavailableError, type SubsystemName } from '@app/domain';

import { SubsystemRegistry } from './subsystem.registry';

const REQUIRES_SUBSYSTEMS = 'synthorg:requires-subsystems';

/** The controller (or handler) answers 503 (8001, retryable) while any of these subsystems is unwired. */
export const RequiresSubsystems = (...names: SubsystemName[]): ClassDecorator & MethodDecorator =>
  SetMetadata(REQUIRES_SUBSYSTEMS, names);

/** Global guard behind @RequiresSubsystems; runs before authentication so an unwired feature says so. */
@Injectable()
export class SubsystemGuard implements CanActivate {
  private readonly cache = new WeakMap<object, readonly SubsystemName[]>();

  constructor(
    private readonly reflector: Reflector,
    private readonly registry: SubsystemRegistry,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let required = this.cache.get(handler);
    if (required === undefined) {
      required = [
        ...(this.reflector.get<SubsystemName[] | undefined>(REQUIRES_SUBSYSTEMS, context.getClass()) ?? []),
        ...(this.reflector.get<SubsystemName[] | undefined>(REQUIRES_SUBSYSTEMS, handler) ?? []),
      ];
      this.cache.set(handler, required);
    }
    for (const name of required) {
      if (!this.registry.isWired(name)) {
        const reason = this.registry.get(name)?.detail;
        throw new ServiceUnavailableError(
          `Service unavailable: ${name} is not wired${reason ? ` (${reason})` : ''}`,
          5,
        );
      }
    }
    return true;
  }
}
