import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

import busboy from 'busboy';

import { ErrorCode, ValidationError } from '@app/domain';

/**
 * Bounds on everything in a form that is not the file: plain fields are read into memory by the
 * parser, so each stays small, and a form of endless parts is cut off.
 */
const FORM_LIMITS: busboy.Limits = {
  files: 1,
  fields: 100,
  fieldSize: 64 * 1024,
  fieldNameSize: 200,
  parts: 101,
  headerPairs: 100,
};

/** Bytes a form may hold beside its file: the plain fields at their limits and the parts' headers. */
export const MAX_FORM_OVERHEAD_BYTES = FORM_LIMITS.fields! * FORM_LIMITS.fieldSize! + 1024 * 1024;

/** Whether a Content-Type announces a `multipart/form-data` body. */
export function isMultipartForm(contentType: string | undefined): boolean {
  return contentType !== undefined && /^multipart\/form-data\b/i.test(contentType.trim());
}

/** What the file part said about itself. */
export interface FilePartInfo {
  filename: string | null;
  /** The part's type; a part that declares none has `text/plain`, the form-data default. */
  contentType: string;
}

/** The file part of a form: its description and its bytes, streamed as they arrive. */
export interface MultipartFile {
  info: FilePartInfo;
  stream: Readable;
}

/**
 * Parses a `multipart/form-data` body with busboy and answers its file part (the first part with a
 * filename, or of type `application/octet-stream`) once that part's headers are read. The bytes are
 * streamed with backpressure, never buffered: memory stays at a few chunks whatever the file's size.
 * Plain fields before or after the file are read within small limits and ignored, and any further
 * file part is skipped. A body without a file part, a malformed one, or one that ends inside the
 * file fails with 2068, on the answer or on the stream.
 */
export function openMultipartFile(body: Readable, headers: IncomingHttpHeaders): Promise<MultipartFile> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: FORM_LIMITS });
  } catch (error) {
    return Promise.reject(invalid(`the multipart body cannot be read: ${(error as Error).message}`));
  }
  return new Promise<MultipartFile>((resolve, reject) => {
    const out = new PassThrough();
    // The parser may fail the file before its reader attaches; the reader still finds the stream
    // errored (`errored`, `destroyed`), so an early error must not go unhandled meanwhile.
    out.on('error', () => undefined);
    let found = false;
    const fail = (message: string): void => {
      // Stop feeding the parser but keep reading the body, so the client still gets the answer.
      body.unpipe(parser);
      body.resume();
      const error = invalid(message);
      if (found) {
        out.destroy(error);
      } else {
        reject(error);
      }
    };
    parser.on('file', (_name, file, info) => {
      found = true;
      file.once('error', (error: Error) => fail(`the multipart file part is incomplete: ${error.message}`));
      file.pipe(out);
      resolve({ info: { filename: info.filename ?? null, contentType: info.mimeType }, stream: out });
    });
    parser.once('error', (error: Error) => fail(`the multipart body is malformed: ${error.message}`));
    parser.once('finish', () => {
      if (!found) {
        reject(
          invalid('the multipart body has no file part (a part with a filename or of type application/octet-stream)'),
        );
      }
    });
    body.pipe(parser);
  });
}

function invalid(message: string): ValidationError {
  return new ValidationError(message, ErrorCode.ArtifactUploadInvalid);
}
