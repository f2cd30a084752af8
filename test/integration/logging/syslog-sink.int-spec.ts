import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLogging, type LoggingRuntime, REDACTED, validateSinkSettings } from '@app/platform';
import { CaptureStream, waitFor } from './logging-test-helpers';

const HEADER = /^<(\d+)>1 (\S+) (\S+) synthorg (\d+) - - (\{.*\})$/;

interface SyslogMessage {
  priority: number;
  time: string;
  record: Record<string, unknown>;
}

function parseSyslog(message: string): SyslogMessage {
  const match = HEADER.exec(message);
  if (!match) {
    throw new Error(`not an RFC 5424 message: ${message}`);
  }
  return { priority: Number(match[1]), time: match[2], record: JSON.parse(match[5]) as Record<string, unknown> };
}

describe('syslog sinks against loopback receivers', () => {
  let dir: string;
  let udp: UdpSocket;
  let tcp: Server;
  const tcpConnections = new Set<Socket>();
  const udpMessages: string[] = [];
  let tcpBuffer = '';

  beforeAll(async () => {
    udp = createSocket('udp4');
    udp.on('message', (message) => udpMessages.push(message.toString('utf8')));
    udp.bind(0, '127.0.0.1');
    await once(udp, 'listening');
    tcp = createServer((socket) => {
      tcpConnections.add(socket);
      socket.on('data', (data) => (tcpBuffer += data.toString('utf8')));
      socket.on('close', () => tcpConnections.delete(socket));
    });
    tcp.listen(0, '127.0.0.1');
    await once(tcp, 'listening');
  });

  afterAll(async () => {
    udp.close();
    tcpConnections.forEach((socket) => socket.destroy());
    await new Promise((resolve) => tcp.close(resolve));
  });

  let runtime: LoggingRuntime | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-syslog-'));
    udpMessages.length = 0;
    tcpBuffer = '';
  });

  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(sink: Record<string, unknown>): LoggingRuntime {
    const { customSinks } = validateSinkSettings({}, [{ sink_type: 'syslog', syslog_host: '127.0.0.1', ...sink }]);
    runtime = createLogging({ dir, customSinks, console: { destination: new CaptureStream(), colorize: false } });
    return runtime;
  }

  it('should deliver redacted JSON records as UDP datagrams when the protocol is udp', async () => {
    const port = udp.address().port;
    const logging = start({ syslog_port: port, syslog_facility: 'local0', level: 'warning' });
    logging.forName('security.auth').info('security.login.succeeded');
    logging
      .forName('security.auth')
      .error({ user: 'ada', credentials: { password: 'p' }, token: 't' }, 'security.login.failed');
    await logging.flush();
    const received = await waitFor(() => udpMessages.length >= 1 && udpMessages, 'a UDP datagram');
    expect(received).toHaveLength(1);
    const message = parseSyslog(received[0]);
    // local0 (16) * 8 + error (3)
    expect(message.priority).toBe(131);
    expect(message.time).toBe(message.record['time']);
    expect(message.record).toMatchObject({
      level: 'ERROR',
      logger: 'synthorg.security.auth',
      event: 'security.login.failed',
      user: 'ada',
      credentials: REDACTED,
      token: REDACTED,
    });
  });

  it('should deliver newline-framed redacted JSON records over TCP when the protocol is tcp', async () => {
    const port = (tcp.address() as AddressInfo).port;
    const logging = start({ syslog_port: port, syslog_protocol: 'tcp' });
    const log = logging.forName('api.access');
    for (let i = 0; i < 5; i++) {
      log.info({ seq: i, headers: { authorization: 'Bearer secret' } }, 'api.request.completed');
    }
    await logging.flush();
    const lines = await waitFor(() => {
      const complete = tcpBuffer.split('\n').filter((line) => line !== '');
      return complete.length >= 5 && complete;
    }, 'five TCP syslog lines');
    const messages = lines.map(parseSyslog);
    expect(messages.map((m) => m.record['seq'])).toEqual([0, 1, 2, 3, 4]);
    // user (1) * 8 + info (6)
    expect(messages.every((m) => m.priority === 14)).toBe(true);
    expect(messages[0].record['headers']).toEqual({ authorization: REDACTED });
  });

  it('should queue records until the TCP collector accepts the connection when logging starts early', async () => {
    const logging = start({ syslog_port: (tcp.address() as AddressInfo).port, syslog_protocol: 'tcp' });
    // Logged synchronously after creation, before the connection can possibly be established.
    logging.root.info('core.boot.started');
    await logging.flush();
    const line = await waitFor(
      () => tcpBuffer.split('\n').find((l) => l.includes('core.boot.started')),
      'the queued record',
    );
    expect(parseSyslog(line).record['event']).toBe('core.boot.started');
  });
});
