import { Alert, Box, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';

import { ApiError, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { ROLE_LABELS } from '../../app/roles';
import { sessionKey, signInPath, useSetupStatus } from '../../app/session';
import { Loading } from '../../components/Loading';
import { AccountStep } from './AccountStep';
import { AgentsStep } from './AgentsStep';
import { CompanyStep } from './CompanyStep';
import { FinishStep } from './FinishStep';
import { ProviderStep } from './ProviderStep';
import { StepIndicator } from './StepIndicator';
import { resolveStep, type StepKey, STEPS } from './steps';

/** The wizard's own page: banner with the product name, main landmark, step indicator. */
function Frame({ step, aside, children }: { step?: StepKey; aside?: ReactNode; children: ReactNode }) {
  return (
    <Box mih="100vh">
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between" wrap="wrap">
            <Group gap="sm" align="baseline">
              <Title order={1} size="h3">
                SynthOrg
              </Title>
              <Text size="sm" c="gray.7">
                First-run setup
              </Text>
            </Group>
            {aside}
          </Group>
        </Container>
      </Box>
      <Container component="main" size="lg" py="lg">
        <Stack gap="lg">
          {step ? <StepIndicator current={step} /> : null}
          <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="md">
            {children}
          </Paper>
        </Stack>
      </Container>
    </Box>
  );
}

/**
 * First run, at /setup/<step>: the CEO account, the company, a provider, the team, finish. The step
 * comes from the service (GET /setup/status and the session), so a closed tab continues where the
 * company actually stands; the address only chooses among the steps already reached.
 */
export default function SetupWizard() {
  const params = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const status = useSetupStatus();
  const me = useQuery({
    queryKey: sessionKey,
    queryFn: () => unwrap(api.GET('/api/v1/auth/me')),
    enabled: status.data !== undefined && !status.data.needs_admin,
    retry: false,
  });
  const requested = params['*']?.split('/')[0] || undefined;
  const step = status.data ? resolveStep(requested, status.data) : undefined;

  useEffect(() => {
    const title = step ? STEPS.find((s) => s.key === step)?.label : undefined;
    document.title = title ? `${title} · Setup · SynthOrg` : 'Setup · SynthOrg';
  }, [step]);

  if (status.error) {
    return (
      <Frame>
        <ErrorNotice error={status.error} title="The service did not answer" />
      </Frame>
    );
  }
  if (!status.data || !step) {
    return (
      <Frame>
        <Loading label="Checking what setup still needs" />
      </Frame>
    );
  }
  if (!status.data.needs_admin && !status.data.needs_setup) {
    return <Navigate to="/" replace />;
  }
  if (step !== requested) {
    return <Navigate to={`/setup/${step}`} replace />;
  }
  if (step === 'account') {
    return (
      <Frame step="account">
        <AccountStep minPasswordLength={status.data.min_password_length} />
      </Frame>
    );
  }
  if (me.error) {
    if (me.error instanceof ApiError && me.error.status === 401) {
      return <Navigate to={signInPath(`/setup/${step}`)} replace />;
    }
    return (
      <Frame>
        <ErrorNotice error={me.error} title="Your session could not be checked" />
      </Frame>
    );
  }
  if (!me.data) {
    return (
      <Frame>
        <Loading label="Checking your session" />
      </Frame>
    );
  }

  const signOut = async () => {
    await unwrap(api.POST('/api/v1/auth/logout')).catch(() => undefined);
    client.clear();
    await navigate('/login', { replace: true });
  };
  const aside = (
    <Group gap="sm">
      <Text size="sm">
        Signed in as <strong>{me.data.username}</strong> ({ROLE_LABELS[me.data.role] ?? me.data.role})
      </Text>
      <Button variant="default" size="xs" onClick={() => void signOut()}>
        Sign out
      </Button>
    </Group>
  );

  if (me.data.role !== 'ceo') {
    return (
      <Frame aside={aside}>
        <Alert color="blue" variant="light" role="note" title="Setup is not finished yet">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Only the CEO can set up the company. Ask them to finish setup, then come back.</Text>
            <Button component={Link} to="/" variant="default" size="xs">
              Go to the overview
            </Button>
          </Stack>
        </Alert>
      </Frame>
    );
  }
  if (me.data.must_change_password) {
    return <Navigate to="/account?change_password=1" replace />;
  }

  const go = (next: StepKey) => () => void navigate(`/setup/${next}`);
  return (
    <Frame step={step} aside={aside}>
      {step === 'company' ? <CompanyStep hasCompany={status.data.has_company} onDone={go('provider')} /> : null}
      {step === 'provider' ? <ProviderStep onBack={go('company')} onNext={go('agents')} /> : null}
      {step === 'agents' ? <AgentsStep onBack={go('provider')} onNext={go('finish')} /> : null}
      {step === 'finish' ? (
        <FinishStep onBack={go('agents')} onFinished={() => void navigate('/', { replace: true })} />
      ) : null}
    </Frame>
  );
}
