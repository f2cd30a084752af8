import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's own messages (module wiring, route mapping) under `synthorg.framework`, apart from the
 * access log that nestjs-pino writes for requests.
 */
export class NestFrameworkLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ component: context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string): void {
    if (message instanceof Error) {
      this.logger[level]({ component: context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ component: context, ...message }, 'framework.message.logged');
    } else {
      this.logger[level]({ component: context }, String(message));
    }
  }
}
