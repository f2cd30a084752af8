import { hostname } from 'node:os';

import { stringFieldOf } from './routing-stream';
import { SYSLOG_FACILITY_CODES, type SyslogSinkConfig, customSinkIdentifier } from './sink-config';
import type { SinkDestination } from './sink-destination';
import { type SyslogTransport, TcpSyslogTransport, UdpSyslogTransport } from './syslog-transports';

/** RFC 5424 severities for our wire levels. */
const SEVERITY: Readonly<Record<string, number>> = { DEBUG: 7, INFO: 6, WARNING: 4, ERROR: 3, CRITICAL: 2 };
const APP_NAME = 'synthorg';

/** RFC 5424 HOSTNAME: printable US-ASCII without spaces, at most 255 characters, `-` when unknown. */
function syslogHostname(): string {
  const name = hostname()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 255);
  return name === '' ? '-' : name;
}

/**
 * Wraps one serialized JSON record into an RFC 5424 message; the JSON record is the MSG part, so
 * collectors can parse it after the header. Level and time come from the record itself.
 */
export function formatSyslogMessage(line: string, facilityCode: number, host: string): string {
  const json = line.endsWith('\n') ? line.slice(0, -1) : line;
  const severity = SEVERITY[stringFieldOf(json, 'level') ?? ''] ?? SEVERITY['INFO'];
  const time = stringFieldOf(json, 'time') ?? new Date().toISOString();
  return `<${facilityCode * 8 + severity}>1 ${time} ${host} ${APP_NAME} ${process.pid} - - ${json}`;
}

export function createSyslogSink(config: SyslogSinkConfig): SinkDestination {
  const endpoint = { identifier: customSinkIdentifier(config), host: config.syslog_host, port: config.syslog_port };
  const transport: SyslogTransport =
    config.syslog_protocol === 'tcp' ? new TcpSyslogTransport(endpoint) : new UdpSyslogTransport(endpoint);
  const facility = SYSLOG_FACILITY_CODES[config.syslog_facility];
  const host = syslogHostname();
  let closed = false;
  return {
    write(line: string): void {
      if (!closed) {
        transport.send(formatSyslogMessage(line, facility, host));
      }
    },
    flush: () => transport.flush(),
    async close(): Promise<void> {
      closed = true;
      await transport.close();
    },
  };
}
