import { Readable } from 'node:stream';

import { ErrorCode } from '@app/domain';

import { isMultipartForm, openMultipartFile } from './multipart-file';

const BOUNDARY = 'XyZ-boundary';
const HEADERS = { 'content-type': `multipart/form-data; boundary="${BOUNDARY}"` };

function form(parts: Array<{ headers: string; body: Buffer | string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${part.headers}\r\n\r\n`), Buffer.from(part.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** Feeds the body in chunks of `size` bytes, so delimiters fall across chunk edges. */
async function extract(body: Buffer, size: number, headers: Record<string, string> = HEADERS) {
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    chunks.push(body.subarray(i, i + size));
  }
  const { info, stream } = await openMultipartFile(Readable.from(chunks), headers);
  const out: Buffer[] = [];
  for await (const chunk of stream) {
    out.push(chunk as Buffer);
  }
  return { info, content: Buffer.concat(out) };
}

describe(openMultipartFile.name, () => {
  const file = Buffer.concat([Buffer.from('\r\n--XyZ'), Buffer.alloc(3000, 0xab), Buffer.from('\r\n-')]);
  const body = form([
    { headers: 'Content-Disposition: form-data; name="comment"', body: 'not the file' },
    {
      headers: 'Content-Disposition: form-data; name="upload"; filename="a.bin"\r\nContent-Type: image/png',
      body: file,
    },
    { headers: 'Content-Disposition: form-data; name="second"; filename="b.bin"', body: 'skipped' },
    { headers: 'Content-Disposition: form-data; name="after"', body: 'ignored' },
  ]);

  it.each([1, 7, 64, 100_000])('should stream exactly the first file part when chunks are %i bytes', async (size) => {
    const { info, content } = await extract(body, size);
    expect(info).toEqual({ filename: 'a.bin', contentType: 'image/png' });
    expect(Buffer.compare(content, file)).toBe(0);
  });

  it('should take an octet-stream part without a filename, and give a part without a type text/plain', async () => {
    const octets = await extract(
      form([
        {
          headers: 'Content-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream',
          body: 'abc',
        },
      ]),
      5,
    );
    expect([octets.info, octets.content.toString()]).toEqual([
      { filename: null, contentType: 'application/octet-stream' },
      'abc',
    ]);
    const untyped = await extract(
      form([{ headers: 'Content-Disposition: form-data; name="f"; filename="n.txt"', body: 'x' }]),
      3,
    );
    expect(untyped.info).toEqual({ filename: 'n.txt', contentType: 'text/plain' });
  });

  it('should fail with 2068 when there is no file part, the body ends inside it, or the form is malformed', async () => {
    const noFile = form([{ headers: 'Content-Disposition: form-data; name="file"', body: 'a plain field' }]);
    await expect(extract(noFile, 4)).rejects.toMatchObject({ code: ErrorCode.ArtifactUploadInvalid });
    await expect(extract(body.subarray(0, 400), 16)).rejects.toMatchObject({
      code: ErrorCode.ArtifactUploadInvalid,
    });
    await expect(extract(body, 64, { 'content-type': 'multipart/form-data' })).rejects.toMatchObject({
      code: ErrorCode.ArtifactUploadInvalid,
    });
    await expect(extract(Buffer.from(`--${BOUNDARY}\r\nno header end`), 8)).rejects.toMatchObject({
      code: ErrorCode.ArtifactUploadInvalid,
    });
  });

  it('should hold back the parser while the reader does not read, and stream a large file in bounded memory', async () => {
    const size = 8 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x5a);
    let produced = 0;
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const source = Readable.from(
      (function* () {
        yield head;
        for (let sent = 0; sent < size; sent += chunk.length) {
          produced += chunk.length;
          yield chunk;
        }
        yield tail;
      })(),
    );
    const { stream } = await openMultipartFile(source, HEADERS);
    // Nothing reads the file yet: the producer must stop after the streams' buffers are full.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(produced).toBeLessThan(size / 4);
    let received = 0;
    for await (const part of stream) {
      received += (part as Buffer).length;
    }
    expect(received).toBe(size);
  });

  it('should recognise a form by its content type', () => {
    expect(isMultipartForm(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(true);
    expect(isMultipartForm(' Multipart/Form-Data; boundary=x')).toBe(true);
    expect(isMultipartForm('application/octet-stream')).toBe(false);
    expect(isMultipartForm(undefined)).toBe(false);
  });
});
