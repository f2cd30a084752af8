import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

import { parseAllDocuments } from 'yaml';

// Renders both Kustomize overlays with `kubectl kustomize`, validates every object against the
// Kubernetes schemas (kubernetes-models), and checks the rules an operator expects of them.

const ROOT = resolve(__dirname, '../..');
const MODELS = join(ROOT, 'node_modules/kubernetes-models');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name: string; containerPort: number }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
    seccompProfile?: { type: string };
  };
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}

interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
}

interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Array<{ name: string; emptyDir?: object; persistentVolumeClaim?: { claimName: string } }>;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  terminationGracePeriodSeconds?: number;
  topologySpreadConstraints?: Array<{ topologyKey: string; maxSkew: number }>;
  automountServiceAccountToken?: boolean;
}

function render(overlay: string): K8sObject[] {
  const text = execFileSync('kubectl', ['kustomize', join(ROOT, 'deploy/overlays', overlay)], { encoding: 'utf8' });
  return parseAllDocuments(text).map((doc) => doc.toJSON() as K8sObject);
}

/** The kubernetes-models class of an object's apiVersion and kind (its ES module, loaded by path). */
function modelOf(object: K8sObject): new (data: unknown) => { validate(): void } {
  const file = join(MODELS, object.apiVersion, `${object.kind}.js`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(file) as Record<string, new (data: unknown) => { validate(): void }>;
  return exported[object.kind];
}

function one(objects: K8sObject[], kind: string, name?: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(found).toHaveLength(1);
  return found[0];
}

function podSpecOf(object: K8sObject): PodSpec {
  return (object.spec as { template: { spec: PodSpec } }).template.spec;
}

function configOf(objects: K8sObject[]): Record<string, string> {
  const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('synthorg-config'));
  return map?.data ?? {};
}

function expectHardened(spec: PodSpec, container: Container): void {
  expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
  expect(container.securityContext).toMatchObject({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(container.securityContext?.capabilities?.drop).toEqual(['ALL']);
  const mounts = new Map((container.volumeMounts ?? []).map((m) => [m.mountPath, m.name]));
  expect(mounts.has('/tmp')).toBe(true);
  expect(container.resources?.requests?.memory).toBeDefined();
  expect(container.resources?.requests?.cpu).toBeDefined();
  expect(container.resources?.limits?.memory).toBeDefined();
}

/** Every variable that carries a secret comes from a Secret reference, never a literal. */
const SECRET_VARIABLES = ['SYNTHORG_JWT_SECRET', 'SYNTHORG_SECRETS_KEY', 'SYNTHORG_DATABASE_URL'];

function expectSecretsFromSecrets(objects: K8sObject[], container: Container): void {
  for (const entry of container.env ?? []) {
    if (SECRET_VARIABLES.includes(entry.name) || entry.name.includes('SECRET')) {
      expect(entry.value).toBeUndefined();
      expect(entry.valueFrom?.secretKeyRef?.name).toBe('synthorg-secrets');
    }
  }
  const config = configOf(objects);
  for (const name of SECRET_VARIABLES) {
    expect(config[name]).toBeUndefined();
  }
  expect(objects.filter((o) => o.kind === 'Secret')).toHaveLength(0);
}

describe.each(['sqlite', 'postgres'])('the %s overlay', (overlay) => {
  const objects = render(overlay);
  const deployment = one(objects, 'Deployment');
  const spec = podSpecOf(deployment);
  const app = spec.containers.find((c) => c.name === 'synthorg')!;
  const config = configOf(objects);

  it('should render objects that all validate against the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(5);
    for (const object of objects) {
      const Model = modelOf(object);
      expect(Model).toBeDefined();
      expect(() => new Model(object).validate()).not.toThrow();
    }
  });

  it('should run the service hardened, with writable /tmp and /data only', () => {
    expectHardened(spec, app);
    const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
    const dataVolume = volumes.get(app.volumeMounts!.find((m) => m.mountPath === '/data')!.name)!;
    expect(dataVolume.emptyDir ?? dataVolume.persistentVolumeClaim).toBeDefined();
    expect(volumes.get('tmp')?.emptyDir).toBeDefined();
    expect(spec.automountServiceAccountToken).toBe(false);
    for (const init of spec.initContainers ?? []) {
      expectHardened(spec, init);
    }
  });

  it('should take every secret from a Secret reference', () => {
    expectSecretsFromSecrets(objects, app);
    for (const job of objects.filter((o) => o.kind === 'Job')) {
      expectSecretsFromSecrets(objects, podSpecOf(job).containers[0]);
    }
  });

  it('should probe start, readiness and liveness on the health routes, and outlast the shutdown grace', () => {
    expect(app.readinessProbe?.httpGet?.path).toBe('/api/v1/health/ready');
    expect(app.livenessProbe?.httpGet?.path).toBe('/api/v1/health/live');
    expect(app.startupProbe?.httpGet?.path).toBe('/api/v1/health/live');
    // The startup window covers the preflight and wiring (a minute at least).
    expect(app.startupProbe!.periodSeconds! * app.startupProbe!.failureThreshold!).toBeGreaterThanOrEqual(60);
    // A draining pod leaves the endpoints within ~10 s of SIGTERM.
    expect(app.readinessProbe!.periodSeconds! * app.readinessProbe!.failureThreshold!).toBeLessThanOrEqual(10);
    const shutdownGrace = Number(config.SYNTHORG_SHUTDOWN_GRACE_SECONDS);
    const engineGrace = Number(config.SYNTHORG_ENGINE_GRACE_SECONDS);
    expect(shutdownGrace).toBeGreaterThan(0);
    const preStop = Number(app.lifecycle?.preStop?.exec?.command[1] ?? 0);
    // The process forces its exit at max(shutdown grace, engine grace + 5) + 5 seconds after SIGTERM.
    const processDeadline = Math.max(shutdownGrace, engineGrace + 5) + 5;
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(shutdownGrace);
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(preStop + processDeadline);
  });

  it('should refuse a schema that is behind and migrate before the service starts', () => {
    expect(config.SYNTHORG_DB_MIGRATE_ON_START).toBe('false');
    const migrators = [
      ...(spec.initContainers ?? []),
      ...objects.filter((o) => o.kind === 'Job').map((job) => podSpecOf(job).containers[0]),
    ].filter((c) => c.command?.join(' ') === 'node dist/apps/api/src/migrate.js');
    expect(migrators).toHaveLength(1);
    expect(migrators[0].image).toBe(app.image);
  });

  it('should serve metrics on their own port, which no Ingress routes', () => {
    expect(config.SYNTHORG_METRICS_PORT).toBe('9464');
    expect(app.ports?.find((p) => p.name === 'metrics')?.containerPort).toBe(9464);
    const ingress = one(objects, 'Ingress');
    const text = JSON.stringify(ingress.spec);
    expect(text).not.toContain('metrics');
    expect(text).not.toContain('9464');
    const paths = (ingress.spec as { rules: Array<{ http: { paths: Array<{ path: string }> } }> }).rules.flatMap(
      (rule) => rule.http.paths.map((p) => p.path),
    );
    expect(paths).toContain('/api/v1/ws');
  });

  it('should have a Service, a disruption budget, topology spread and a network policy', () => {
    expect(objects.filter((o) => o.kind === 'Service').length).toBeGreaterThanOrEqual(1);
    expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(1);
    expect(spec.topologySpreadConstraints?.map((t) => t.topologyKey)).toContain('kubernetes.io/hostname');
    const policy = one(objects, 'NetworkPolicy', 'synthorg');
    const ingressRules = (policy.spec as { ingress: Array<{ ports: Array<{ port: string }> }> }).ingress;
    expect(ingressRules.flatMap((rule) => rule.ports.map((p) => p.port)).sort()).toEqual(['http', 'metrics']);
  });
});

describe('the overlays', () => {
  it('should run SQLite as one replica on a claim, replaced rather than rolled', () => {
    const objects = render('sqlite');
    const deployment = one(objects, 'Deployment');
    expect(deployment.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
    const claim = one(objects, 'PersistentVolumeClaim');
    expect((claim.spec as { accessModes: string[] }).accessModes).toEqual(['ReadWriteOnce']);
    const data = podSpecOf(deployment).volumes!.find((v) => v.name === 'data')!;
    expect(data.persistentVolumeClaim?.claimName).toBe(claim.metadata.name);
    expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toHaveLength(0);
  });

  it('should run Postgres with several replicas, a shared claim, an autoscaler and a migrate Job', () => {
    const objects = render('postgres');
    const deployment = one(objects, 'Deployment');
    expect((deployment.spec as { replicas: number }).replicas).toBeGreaterThan(1);
    const claim = one(objects, 'PersistentVolumeClaim');
    expect((claim.spec as { accessModes: string[] }).accessModes).toEqual(['ReadWriteMany']);
    const app = podSpecOf(deployment).containers[0];
    expect(app.volumeMounts?.find((m) => m.mountPath === '/shared')).toBeDefined();
    const config = configOf(objects);
    expect(config.SYNTHORG_WORKSPACE_DIR.startsWith('/shared/')).toBe(true);
    expect(config.SYNTHORG_ARTIFACTS_DIR.startsWith('/shared/')).toBe(true);
    const hpa = one(objects, 'HorizontalPodAutoscaler');
    expect(hpa.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name: deployment.metadata.name } });
    expect((hpa.spec as { minReplicas: number }).minReplicas).toBeGreaterThanOrEqual(2);
    const budget = one(objects, 'PodDisruptionBudget');
    expect(budget.spec).toMatchObject({ minAvailable: 1 });
    const job = one(objects, 'Job');
    expect(job.metadata.annotations?.['argocd.argoproj.io/hook']).toBe('PreSync');
    // Applied alone before a rollout (`-l 'app.kubernetes.io/component in (config,migrate)'`), the
    // Job finds what it needs: its ConfigMap among the selected objects, and no service account of its own.
    const selected = objects.filter((o) =>
      ['config', 'migrate'].includes(o.metadata.labels?.['app.kubernetes.io/component'] ?? ''),
    );
    const jobSpec = podSpecOf(job) as PodSpec & { serviceAccountName?: string };
    const configName = jobSpec.containers[0].envFrom?.[0].configMapRef?.name;
    expect(selected.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      `ConfigMap/${configName}`,
      'Job/synthorg-migrate',
    ]);
    expect(jobSpec.serviceAccountName).toBeUndefined();
    expect(app.env?.find((e) => e.name === 'SYNTHORG_DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe('database-url');
  });
});
