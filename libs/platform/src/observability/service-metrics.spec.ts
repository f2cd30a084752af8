import { ServiceMetrics } from './service-metrics';

describe(ServiceMetrics.name, () => {
  it('should read the scrape hooks before rendering, skipping one that fails', async () => {
    const metrics = new ServiceMetrics(false);
    metrics.onScrape('pending', () => metrics.approvalsPending.set(3));
    metrics.onScrape('broken', () => Promise.reject(new Error('database down')));

    const text = await metrics.render();

    expect(text).toContain('synthorg_approvals_pending 3');
    expect(text).not.toContain('process_cpu');
  });

  it('should stop reading a hook once it is removed, and replace one registered under the same name', async () => {
    const metrics = new ServiceMetrics(false);
    const remove = metrics.onScrape('ws', () => metrics.websocketConnections.set(1));
    metrics.onScrape('ws', () => metrics.websocketConnections.set(2));
    remove();

    expect(await metrics.render()).toContain('synthorg_websocket_connections 2');
  });

  it('should add the process metrics when asked', async () => {
    expect(await new ServiceMetrics(true).render()).toContain('process_resident_memory_bytes');
  });
});
