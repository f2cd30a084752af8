import { formatSyslogMessage } from './syslog-sink';

describe('formatSyslogMessage', () => {
  it('should build an RFC 5424 header from the record level and time when wrapping JSON', () => {
    const line =
      '{"level":"ERROR","time":"2030-01-02T03:04:05.678Z","logger":"synthorg.api","event":"api.request.failed"}\n';
    const message = formatSyslogMessage(line, 16, 'host-a');
    expect(message).toBe(`<131>1 2030-01-02T03:04:05.678Z host-a synthorg ${process.pid} - - ${line.trimEnd()}`);
  });

  it('should map every wire level to its syslog severity when computing the priority', () => {
    const priority = (level: string): string =>
      formatSyslogMessage(`{"level":"${level}","time":"t"}`, 1, 'h').split('>')[0];
    expect(['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'].map(priority)).toEqual([
      '<15',
      '<14',
      '<12',
      '<11',
      '<10',
    ]);
  });
});
