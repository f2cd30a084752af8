// Baseline (a): raw node:http answering the same envelope the service sends for GET /health.
import { createServer } from 'node:http';

const body = JSON.stringify({ data: { status: 'ok' }, error: null, error_detail: null, success: true });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
