// Baseline (b): a bare Nest/Express app (same Nest version) with one route and the same envelope interceptor.
import 'reflect-metadata';

import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { EnvelopeInterceptor } from '@app/platform';

@Controller('health')
class HealthController {
  @Get()
  get(): { status: string } {
    return { status: 'ok' };
  }
}

@Module({ controllers: [HealthController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(BareModule, { logger: false });
  app.setGlobalPrefix('api/v1');
  app.useGlobalInterceptors(new EnvelopeInterceptor());
  await app.listen(0, '127.0.0.1');
  const address = (app.getHttpServer() as import('node:http').Server).address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
