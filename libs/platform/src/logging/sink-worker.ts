// Entry of the sink thread (see worker-sink-host): opens the sinks it is given and serves requests.
import { parentPort, workerData } from 'node:worker_threads';

import { createInlineSinkHost, type SinkHostConfig } from './sink-host';
import type { HostReply, HostRequest } from './sink-worker-protocol';

const port = parentPort;
if (port) {
  const host = createInlineSinkHost(workerData as SinkHostConfig);
  const reply = (message: HostReply): void => port.postMessage(message);
  port.on('message', (request: HostRequest) => {
    switch (request.type) {
      case 'records': {
        const { text, levels } = request;
        // Serialized records never contain a raw newline (JSON escapes it), so each ends at one.
        let start = 0;
        for (const level of levels) {
          const end = text.indexOf('\n', start) + 1 || text.length;
          host.write(text.slice(start, end), level);
          start = end;
        }
        reply({ type: 'taken', chars: request.chars });
        break;
      }
      case 'reconfigure':
        host.reconfigure(request.config).then(
          () => reply({ type: 'done', id: request.id }),
          (error: unknown) => reply({ type: 'done', id: request.id, error: String(error) }),
        );
        break;
      case 'flush':
        void host.flush().then(() => reply({ type: 'done', id: request.id }));
        break;
      case 'close':
        void host.close().then(() => reply({ type: 'done', id: request.id }));
        break;
    }
  });
}
