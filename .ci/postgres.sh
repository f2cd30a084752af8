# Helpers to make sure the local PostgreSQL server the tests use is up (sourced by test.sh and run).
pg_admin_url() { printf '%s' "${SYNTHORG_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"; }

pg_up() {
  node -e '
    const { Client } = require("pg");
    const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
    c.connect().then(() => c.end()).then(() => process.exit(0), () => process.exit(1));
  ' "$(pg_admin_url)" 2>/dev/null
}

ensure_postgres() {
  if pg_up; then return 0; fi
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "[postgres] not reachable; starting the local cluster" >&2
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do pg_up && return 0; sleep 1; done
  fi
  echo "[postgres] not reachable at $(pg_admin_url); integration and e2e tests need it" >&2
  return 1
}
