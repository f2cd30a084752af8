// The meetings module's public face: other modules import only from here.
export { MeetingScheduler } from './meeting.scheduler';
export { MeetingsModule } from './meetings.module';
export { MeetingsService } from './meetings.service';
