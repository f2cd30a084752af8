import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { CompanyModule } from '../company';
import { EngineModule } from '../engine';
import { MessagesModule } from '../messages';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { TasksModule } from '../tasks';
import { MeetingActionTasks } from './meeting-action-tasks';
import { MeetingCalls } from './meeting-calls';
import { MeetingRunner } from './meeting-runner';
import { MeetingScheduler } from './meeting.scheduler';
import { MeetingTypeCatalogue } from './meeting-type-catalogue';
import { MeetingsController } from './meetings.controller';
import { MeetingsRepository } from './meetings.repository';
import { MeetingsService } from './meetings.service';
import { MEETINGS_SETTINGS } from './meetings.settings';

/**
 * Meetings: the configured types, the protocols as participants' model calls (costed as
 * coordination), the scheduler, the trigger, and the only writer of the meetings table.
 */
@Module({
  imports: [
    AgentsModule,
    CompanyModule,
    EngineModule,
    MessagesModule,
    ProvidersModule,
    SettingsModule.forFeature(MEETINGS_SETTINGS),
    TasksModule,
  ],
  controllers: [MeetingsController],
  providers: [
    MeetingActionTasks,
    MeetingCalls,
    MeetingRunner,
    MeetingScheduler,
    MeetingTypeCatalogue,
    MeetingsRepository,
    MeetingsService,
  ],
  exports: [MeetingScheduler, MeetingsService],
})
export class MeetingsModule {}
