import {
  artifactTypeForPath,
  assertArtifactId,
  assertArtifactPath,
  ErrorCode,
  normaliseContentType,
  parseArtifactType,
  parseByteRange,
  servedContentType,
} from '@app/domain';

describe('artifact rules', () => {
  it.each(['artifact-1f2e', 'a', 'report.v2_final'])('should accept the id %s', (id) => {
    expect(assertArtifactId(id)).toBe(id);
  });

  it.each(['', '..', '.env', '../etc/passwd', 'a/b', 'a\\b', 'x..y', 'a\u0000', 'x'.repeat(129)])(
    'should refuse the id %j (2065)',
    (id) => {
      expect(() => assertArtifactId(id)).toThrow(expect.objectContaining({ code: ErrorCode.ArtifactIdInvalid }));
    },
  );

  it('should keep relative paths (backslashes as slashes) and refuse ones that leave the project (2066)', () => {
    expect(assertArtifactPath('src\\app.ts')).toBe('src/app.ts');
    for (const path of ['', ' ', '/etc/passwd', '../x', 'a/../../b', 'a//b', 'C:/x', 'a\nb', 'x/']) {
      expect(() => assertArtifactPath(path)).toThrow(expect.objectContaining({ code: ErrorCode.ArtifactPathInvalid }));
    }
  });

  it('should narrow the three types and refuse others (2067)', () => {
    expect(parseArtifactType('tests')).toBe('tests');
    expect(() => parseArtifactType('binary')).toThrow(expect.objectContaining({ code: ErrorCode.ArtifactTypeInvalid }));
  });

  it('should classify committed files by path', () => {
    expect(artifactTypeForPath('src/app.ts')).toBe('code');
    expect(artifactTypeForPath('test/app.e2e-spec.ts')).toBe('tests');
    expect(artifactTypeForPath('src/app.spec.ts')).toBe('tests');
    expect(artifactTypeForPath('tests/test_app.py')).toBe('tests');
    expect(artifactTypeForPath('docs/guide.html')).toBe('documentation');
    expect(artifactTypeForPath('README.md')).toBe('documentation');
  });

  it('should serve safe content types as stored and everything else as octet-stream', () => {
    expect(normaliseContentType('Text/Plain;charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(normaliseContentType(undefined)).toBe('application/octet-stream');
    expect(() => normaliseContentType('not a type')).toThrow(
      expect.objectContaining({ code: ErrorCode.ArtifactUploadInvalid }),
    );
    expect(servedContentType('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(servedContentType('image/svg+xml')).toBe('application/octet-stream');
    expect(servedContentType('text/html')).toBe('application/octet-stream');
  });

  it('should parse one byte range, ignore several and refuse unsatisfiable ones (416, 2069)', () => {
    expect(parseByteRange(undefined, 10)).toBeNull();
    expect(parseByteRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(parseByteRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseByteRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseByteRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
    expect(parseByteRange('bytes=0-1,4-5', 10)).toBeNull();
    for (const header of ['bytes=10-', 'bytes=4-2', 'bytes=-0', 'items=1-2', 'bytes=x']) {
      expect(() => parseByteRange(header, 10)).toThrow(
        expect.objectContaining({ code: ErrorCode.ArtifactRangeInvalid, httpStatus: 416 }),
      );
    }
  });
});
