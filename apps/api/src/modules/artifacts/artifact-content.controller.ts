import { pipeline } from 'node:stream/promises';

import { Controller, Get, Headers, Inject, Put, Req, Res, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

import { Permission, RangeNotSatisfiableError } from '@app/domain';
import {
  Actor,
  type ActorContext,
  type ApiResponseBody,
  Endpoint,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ok,
  PathId,
  RAW_RESPONSE,
  RequiresSubsystems,
} from '@app/platform';

import { ArtifactContentService, type Download } from './artifact-content.service';
import { ArtifactDto } from './dto/artifact.dto';

const BINARY = { type: 'string', format: 'binary' };

/** Artifact content: streamed up (raw or multipart) and down (whole or one byte range). */
@ApiTags('artifacts')
@ApiBearerAuth()
@Controller('artifacts')
@RequiresSubsystems('persistence')
export class ArtifactContentController {
  private readonly log: Logger;

  constructor(
    private readonly content: ArtifactContentService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('artifacts');
  }

  // Streamed in, so answered outside the envelope interceptor (which also keeps Idempotency-Key off
  // it, as with every streamed route): the body is the same ApiResponse<Artifact>.
  @Put(':artifact_id/content')
  @Endpoint({
    summary:
      'Upload the content as a raw body (its Content-Type is kept) or as multipart/form-data (the file part); ' +
      'over the per-artifact limit: 413 (2002); storage full: 507 (8007)',
    response: ArtifactDto,
    errors: [400, 401, 403, 404, 413, 507],
    permission: Permission.Write,
  })
  @SetMetadata(RAW_RESPONSE, true)
  @ApiConsumes('application/octet-stream', 'multipart/form-data')
  @ApiBody({
    required: true,
    schema: BINARY,
    description:
      'The bytes as the raw body, or a multipart/form-data form whose file part (a filename, or the name "file") holds them.',
  })
  async upload(
    @Actor() actor: ActorContext,
    @PathId('artifact_id') id: string,
    @Req() req: Request,
  ): Promise<ApiResponseBody<ArtifactDto>> {
    return ok(await this.content.upload(actor, id, { body: req, headers: req.headers }));
  }

  @Get(':artifact_id/content')
  @Endpoint({
    summary: 'Download the content as an attachment; one byte Range is answered 206, an unsatisfiable one 416 (2069)',
    errors: [400, 401, 403, 404, 416],
    permission: Permission.Read,
  })
  @SetMetadata(RAW_RESPONSE, true)
  @ApiProduces('application/octet-stream')
  @ApiResponse({ status: 200, description: 'The content', content: { 'application/octet-stream': { schema: BINARY } } })
  @ApiResponse({
    status: 206,
    description: 'One byte range',
    content: { 'application/octet-stream': { schema: BINARY } },
  })
  async download(
    @PathId('artifact_id') id: string,
    @Headers('range') range: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    let download: Download;
    try {
      download = await this.content.download(id, range);
    } catch (error) {
      if (error instanceof RangeNotSatisfiableError) {
        res.setHeader('Content-Range', `bytes */${error.size}`);
      }
      throw error;
    }
    writeHead(res, download);
    try {
      await pipeline(download.stream, res);
    } catch (error) {
      // The client went away or the file failed mid-stream: the status is already sent.
      this.log.warn({ artifact_id: download.artifact.id, err: error }, 'artifacts.content.download_interrupted');
    }
  }
}

function writeHead(res: Response, download: Download): void {
  const { range, size } = download;
  res.status(range ? 206 : 200);
  res.setHeader('Content-Type', download.contentType);
  res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : size));
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Disposition', attachment(download.filename));
  if (download.artifact.sha256) {
    res.setHeader('ETag', `"${download.artifact.sha256}"`);
  }
  if (range) {
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  }
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
