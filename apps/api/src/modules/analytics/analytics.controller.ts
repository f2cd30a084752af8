import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Endpoint, RequiresSubsystems } from '@app/platform';

import { AnalyticsService } from './analytics.service';
import {
  ForecastQueryDto,
  ForecastResponseDto,
  OverviewMetricsDto,
  TrendsQueryDto,
  TrendsResponseDto,
} from './dto/analytics.dto';

/** Organisation metrics: overview, trends and the spend forecast (every role reads). */
@ApiTags('analytics')
@ApiBearerAuth()
@Controller('analytics')
@RequiresSubsystems('persistence')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('overview')
  @Endpoint({
    summary: 'Task, agent and budget figures with the 7-day spend',
    response: OverviewMetricsDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  overview(): Promise<OverviewMetricsDto> {
    return this.analytics.overview();
  }

  @Get('trends')
  @Endpoint({
    summary: 'A metric over 7, 30 or 90 days in zero-filled UTC buckets (hourly for 7d, daily otherwise)',
    response: TrendsResponseDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  trends(@Query() query: TrendsQueryDto): Promise<TrendsResponseDto> {
    return this.analytics.trends(query.period, query.metric);
  }

  @Get('forecast')
  @Endpoint({
    summary: 'Daily spend projections and when the period budget runs out',
    response: ForecastResponseDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  forecast(@Query() query: ForecastQueryDto): Promise<ForecastResponseDto> {
    return this.analytics.forecast(query.horizon_days);
  }
}
