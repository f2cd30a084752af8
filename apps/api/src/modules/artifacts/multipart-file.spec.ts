import { Readable } from 'node:stream';

import { ErrorCode } from '@app/domain';

import { MultipartFileStream, multipartBoundary } from './multipart-file';

const BOUNDARY = 'XyZ-boundary';

function form(parts: Array<{ headers: string; body: Buffer | string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${part.headers}\r\n\r\n`), Buffer.from(part.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** Feeds the body in chunks of `size` bytes, so delimiters fall across chunk edges. */
async function extract(body: Buffer, size: number) {
  const parser = new MultipartFileStream(BOUNDARY);
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    chunks.push(body.subarray(i, i + size));
  }
  Readable.from(chunks).pipe(parser);
  const out: Buffer[] = [];
  for await (const chunk of parser) {
    out.push(chunk as Buffer);
  }
  return { info: await parser.info, content: Buffer.concat(out) };
}

describe(MultipartFileStream.name, () => {
  const file = Buffer.concat([Buffer.from('\r\n--XyZ'), Buffer.alloc(3000, 0xab), Buffer.from('\r\n-')]);
  const body = form([
    { headers: 'Content-Disposition: form-data; name="comment"', body: 'not the file' },
    {
      headers: 'Content-Disposition: form-data; name="upload"; filename="a.bin"\r\nContent-Type: image/png',
      body: file,
    },
    { headers: 'Content-Disposition: form-data; name="after"', body: 'ignored' },
  ]);

  it.each([1, 7, 64, 100_000])('should stream exactly the file part when chunks are %i bytes', async (size) => {
    const { info, content } = await extract(body, size);
    expect(info).toEqual({ filename: 'a.bin', contentType: 'image/png' });
    expect(Buffer.compare(content, file)).toBe(0);
  });

  it('should take a part named file without a filename', async () => {
    const { info, content } = await extract(
      form([{ headers: 'Content-Disposition: form-data; name="file"', body: 'abc' }]),
      5,
    );
    expect([info.filename, content.toString()]).toEqual([null, 'abc']);
  });

  it('should fail with 2068 when there is no file part or the body ends inside it', async () => {
    const noFile = form([{ headers: 'Content-Disposition: form-data; name="x"', body: 'y' }]);
    await expect(extract(noFile, 4)).rejects.toMatchObject({ code: ErrorCode.ArtifactUploadInvalid });
    await expect(extract(body.subarray(0, 400), 16)).rejects.toMatchObject({
      code: ErrorCode.ArtifactUploadInvalid,
    });
  });

  it('should read the boundary from the content type and refuse a form without one', () => {
    expect(multipartBoundary(`multipart/form-data; boundary="${BOUNDARY}"`)).toBe(BOUNDARY);
    expect(multipartBoundary(`multipart/form-data; charset=x; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(multipartBoundary('application/octet-stream')).toBeNull();
    expect(() => multipartBoundary('multipart/form-data')).toThrow(
      expect.objectContaining({ code: ErrorCode.ArtifactUploadInvalid }),
    );
  });
});
