"""Write the second held-out coding-sessions set: two projects of multi-day coding-agent sessions.

Same machinery as ``../coding-sessions/make.py`` (imported from that file by path: the step
helpers, the Claude Code and Codex renderers, ``build``, ``write_set``), but different projects, owners,
stacks and wording from both earlier sets, so a memory tool tuned on them can be checked on text
it has never seen. The gold labels (``gold.json``) were written by hand from these transcripts
alone, before any memory tool was run on them.

Projects:
- ``quayside``: a Go HTTP service (chi, pgx + sqlc, Postgres) on Kubernetes with Argo CD, the
  berth-planning API of a Rotterdam container terminal (owner Joost);
- ``belay``: a Phoenix LiveView app (Elixir, Ecto, Oban) for the members and check-ins of two
  Montréal climbing gyms (owner Gen).

Run: ``python benchmarks/data/coding-sessions-heldout2/make.py`` (``--check`` only verifies the
files on disk match what it would write). Output is deterministic.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_BASE_PATH = HERE.parent / "coding-sessions" / "make.py"
_spec = importlib.util.spec_from_file_location("coding_sessions_make", _BASE_PATH)
base = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = base  # dataclasses look their module up in sys.modules
_spec.loader.exec_module(base)

U, A, TH, SH, RD, ED, WR = base.U, base.A, base.TH, base.SH, base.RD, base.ED, base.WR
MEM, WEB, COMPACT, CMD, CAVEAT = base.MEM, base.WEB, base.COMPACT, base.CMD, base.CAVEAT
Session, Day, Project, build = base.Session, base.Day, base.Project, base.build


# ================================================================================================
# Project 1: quayside, a Go berth-planning API on Postgres and Kubernetes (owner Joost, Rotterdam)
# ================================================================================================
QUAY_CWD = "/home/joost/src/quayside"

QUAY_LS = """Dockerfile
Makefile
README.md
cmd
deploy
docker-compose.yml
docs
go.mod
go.sum
internal
migrations
sqlc.yaml"""

QUAY_MAKEFILE = """.PHONY: run test itest generate lint migrate

run:
\tgo run ./cmd/quayside

test:
\tgo test ./...

itest:
\tgo test -tags=integration -count=1 ./...

generate:
\tsqlc generate

lint:
\tgolangci-lint run ./...

migrate:
\tgoose -dir migrations postgres "$$DATABASE_URL" up"""

GO_UNIT_OK = """?   \tgithub.com/portline/quayside/cmd/quayside\t[no test files]
ok  \tgithub.com/portline/quayside/internal/berth\t0.012s
ok  \tgithub.com/portline/quayside/internal/config\t0.006s
ok  \tgithub.com/portline/quayside/internal/havenlink\t0.019s
ok  \tgithub.com/portline/quayside/internal/http\t0.034s
?   \tgithub.com/portline/quayside/internal/store/dbgen\t[no test files]"""

ITEST_REFUSED = """go test -tags=integration -count=1 ./...
?   \tgithub.com/portline/quayside/cmd/quayside\t[no test files]
ok  \tgithub.com/portline/quayside/internal/berth\t0.013s
ok  \tgithub.com/portline/quayside/internal/config\t0.007s
ok  \tgithub.com/portline/quayside/internal/havenlink\t0.021s
--- FAIL: TestVesselCallHandlers (0.00s)
    testdb_test.go:24: connect: failed to connect to `user=quayside database=quayside_test`:
        127.0.0.1:5434 (localhost): dial error: dial tcp 127.0.0.1:5434: connect: connection refused
        [::1]:5434 (localhost): dial error: dial tcp [::1]:5434: connect: connection refused
FAIL
FAIL\tgithub.com/portline/quayside/internal/http\t0.027s
--- FAIL: TestBerthStore (0.00s)
    store_integration_test.go:31: connect: failed to connect to `user=quayside database=quayside_test`:
        127.0.0.1:5434 (localhost): dial error: dial tcp 127.0.0.1:5434: connect: connection refused
FAIL
FAIL\tgithub.com/portline/quayside/internal/store\t0.019s
FAIL
make: *** [Makefile:10: itest] Error 1"""

ITEST_TIMEOUT = """go test -tags=integration -count=1 ./...
?   \tgithub.com/portline/quayside/cmd/quayside\t[no test files]
ok  \tgithub.com/portline/quayside/internal/berth\t0.011s
ok  \tgithub.com/portline/quayside/internal/config\t0.006s
ok  \tgithub.com/portline/quayside/internal/havenlink\t0.024s
2026/12/10 09:41:07 testdb: database not reachable after 10 attempts: context deadline exceeded
FAIL\tgithub.com/portline/quayside/internal/http\t10.412s
2026/12/10 09:41:18 testdb: database not reachable after 10 attempts: context deadline exceeded
FAIL\tgithub.com/portline/quayside/internal/store\t10.388s
FAIL
make: *** [Makefile:10: itest] Error 1"""

ITEST_OK = """go test -tags=integration -count=1 ./...
?   \tgithub.com/portline/quayside/cmd/quayside\t[no test files]
ok  \tgithub.com/portline/quayside/internal/berth\t0.012s
ok  \tgithub.com/portline/quayside/internal/config\t0.006s
ok  \tgithub.com/portline/quayside/internal/havenlink\t{hl}s
ok  \tgithub.com/portline/quayside/internal/http\t{http}s
ok  \tgithub.com/portline/quayside/internal/store\t{store}s
?   \tgithub.com/portline/quayside/internal/store/dbgen\t[no test files]"""

COMPOSE_PG = """  pg:
    image: postgres:16
    environment:
      POSTGRES_USER: quayside
      POSTGRES_PASSWORD: quayside
      POSTGRES_DB: quayside_test
    ports:
      - "5434:5432"
    volumes:
      - ./scripts/pg-init:/docker-entrypoint-initdb.d:ro"""

BERTHS_SQL = """-- name: GetBerth :one
SELECT id, terminal, name, length_m, max_draft_m
FROM berths
WHERE id = $1;

-- name: ListVesselCallsForBerth :many
SELECT id, berth_id, vessel_imo, eta, etd
FROM vessel_calls
WHERE berth_id = $1 AND etd > now()
ORDER BY eta;"""

WINDOWS_QUERY = """

-- name: ListBerthWindows :many
-- Free windows on one berth between now and $2: the gaps between consecutive vessel calls.
WITH calls AS (
    SELECT eta, etd FROM vessel_calls
    WHERE berth_id = $1 AND etd > now() AND eta < sqlc.arg(until)::timestamptz
)
SELECT coalesce(lag(etd) OVER (ORDER BY eta), now())::timestamptz AS free_from,
       eta::timestamptz AS free_until
FROM calls
ORDER BY eta;"""

WINDOWS_HANDLER = """package http

import (
\t"encoding/json"
\t"fmt"
\t"log/slog"
\t"net/http"
\t"strconv"
\t"time"

\t"github.com/go-chi/chi/v5"

\t"github.com/portline/quayside/internal/store/dbgen"
)

const windowHorizon = 14 * 24 * time.Hour

func (s *Server) berthWindows(w http.ResponseWriter, r *http.Request) {
\tid, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
\tif err != nil {
\t\thttp.Error(w, "invalid berth id", http.StatusBadRequest)
\t\treturn
\t}
\trows, err := s.q.ListBerthWindows(r.Context(), dbgen.ListBerthWindowsParams{BerthID: id, Until: time.Now().Add(windowHorizon)})
\tif err != nil {
\t\ts.fail(w, r, fmt.Errorf("list windows for berth %d: %w", id, err))
\t\treturn
\t}
\tslog.DebugContext(r.Context(), "berth windows", "berth_id", id, "windows", len(rows))
\tw.Header().Set("Content-Type", "application/json")
\tjson.NewEncoder(w).Encode(toWindows(rows))
}"""

SQLC_UNDEFINED = """# github.com/portline/quayside/internal/http
internal/http/berth_windows.go:24:60: undefined: dbgen.ListBerthWindowsParams
internal/http/berth_windows.go:24:17: s.q.ListBerthWindows undefined (type *dbgen.Queries has no field or method ListBerthWindows)"""

LINT_ERRCHECK = """internal/http/berth_windows.go:31:28: Error return value of `(*encoding/json.Encoder).Encode` is not checked (errcheck)
\tjson.NewEncoder(w).Encode(toWindows(rows))
\t                          ^
1 issues:
* errcheck: 1"""

STAGING_PODS_CRASH = """NAME                                  READY   STATUS             RESTARTS        AGE
qs-pg-1                               1/1     Running            0               9d
qs-pg-2                               1/1     Running            0               9d
quayside-6c8f7d9b54-k2v7r             0/1     CrashLoopBackOff   7 (2m11s ago)   14m
quayside-6c8f7d9b54-tq9ws             0/1     CrashLoopBackOff   7 (2m40s ago)   14m
quayside-eta-sync-29421840-8xq2z      0/1     Error              0               41m"""

STAGING_CRASH_LOG = """{"time":"2026-12-08T08:58:41.127Z","level":"INFO","msg":"starting quayside","version":"0.14.1","commit":"a91c3e7"}
{"time":"2026-12-08T08:58:41.129Z","level":"ERROR","msg":"load config","err":"config: QS_HAVENLINK_TOKEN: required variable is not set"}"""

EXTERNAL_SECRET = """apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata:
  name: quayside-env
  namespace: quayside-staging
spec:
  refreshInterval: 5m
  secretStoreRef:
    kind: ClusterSecretStore
    name: vault
  target:
    name: quayside-env
  data:
    - secretKey: DATABASE_URL
      remoteRef: {key: kv/quayside/staging, property: DATABASE_URL}
    - secretKey: QS_KEYCLOAK_CLIENT_SECRET
      remoteRef: {key: kv/quayside/staging, property: QS_KEYCLOAK_CLIENT_SECRET}"""

ETA_SYNC_429 = """{"time":"2026-12-08T04:10:02.310Z","level":"INFO","msg":"eta sync start","since":"2026-12-08T04:05:00Z"}
{"time":"2026-12-08T04:10:14.882Z","level":"ERROR","msg":"eta sync failed","err":"havenlink: GET /v2/vessel-calls?page=61: 429 Too Many Requests"}
{"time":"2026-12-08T04:15:02.118Z","level":"INFO","msg":"eta sync start","since":"2026-12-08T04:05:00Z"}
{"time":"2026-12-08T04:15:13.907Z","level":"ERROR","msg":"eta sync failed","err":"havenlink: GET /v2/vessel-calls?page=61: 429 Too Many Requests"}"""

HAVENLINK_CLIENT = """package havenlink

// Client talks to Havenlink's vessel-call API (https://api.havenlink.nl/v2).
type Client struct {
\tbase  string
\ttoken string
\thttp  *http.Client
}

func (c *Client) VesselCalls(ctx context.Context, since time.Time) ([]VesselCall, error) {
\tvar all []VesselCall
\tfor page := 1; ; page++ {
\t\tbatch, more, err := c.page(ctx, since, page)
\t\tif err != nil {
\t\t\treturn nil, fmt.Errorf("havenlink: %w", err)
\t\t}
\t\tall = append(all, batch...)
\t\tif !more {
\t\t\treturn all, nil
\t\t}
\t}
}"""

CONFLICT_QUERY = """

-- name: CountOverlappingCalls :one
SELECT count(*) FROM vessel_calls
WHERE berth_id = $1
  AND tstzrange(eta, etd) && tstzrange(sqlc.arg(eta)::timestamptz, sqlc.arg(etd)::timestamptz);"""

VET_UNDEFINED = """# github.com/portline/quayside/internal/http
vet: internal/http/vessel_calls.go:58:14: s.q.CountOverlappingCalls undefined (type *dbgen.Queries has no field or method CountOverlappingCalls)"""

NO_OVERLAP_MIGRATION = """-- +goose Up
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE vessel_calls
    ADD CONSTRAINT vessel_calls_no_overlap
    EXCLUDE USING gist (berth_id WITH =, tstzrange(eta, etd) WITH &&);

-- +goose Down
ALTER TABLE vessel_calls DROP CONSTRAINT vessel_calls_no_overlap;"""

STAGING_VALUES_PROXY = """image:
  repository: europe-west4-docker.pkg.dev/portline-prod/images/quayside
  tag: 0.15.0
replicas: 2
service:
  port: 8088
  metricsPort: 9102
cloudSqlProxy:
  enabled: true
  image: gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1
  instance: portline-prod:europe-west4:quayside
  args:
    - --port=5432
envFromSecret: quayside-env"""

PROXY_IAM_FAIL = """{"time":"2026-12-11T08:33:52.004Z","level":"INFO","msg":"starting quayside","version":"0.15.0","commit":"4be1d20"}
{"time":"2026-12-11T08:33:57.318Z","level":"ERROR","msg":"connect database","err":"failed to connect to `user=quayside-staging@portline-prod.iam database=quayside`: 127.0.0.1:5432 (127.0.0.1): server error: FATAL: Cloud SQL IAM user authentication failed for user \\"quayside-staging@portline-prod.iam\\" (SQLSTATE 28000)"}"""

QUAY_COMPACT = """Analysis:
Joost said the platform team moved quayside's Postgres from the in-cluster CloudNativePG clusters to Cloud SQL (instance portline-prod:europe-west4:quayside), \
reached through a cloud-sql-proxy sidecar on 127.0.0.1:5432 with IAM database auth; the CNPG clusters are switched off. Staging pods failed with \
"Cloud SQL IAM user authentication failed" because the proxy ran without --auto-iam-authn. I added --auto-iam-authn and --private-ip to \
apps/quayside/staging/values.yaml in the gitops repo (MR !88, merged by Joost); Joost had already updated DATABASE_URL in Vault (kv/quayside/staging). \
Staging rolled out and both pods are 2/2 Running.

Summary:
1. Primary Request and Intent: get quayside-staging running against Cloud SQL.
2. Key Technical Concepts: Cloud SQL Auth Proxy v2 sidecar, IAM database authentication, External Secrets from Vault, Argo CD sync from portline/gitops.
3. Files and Code Sections: gitops apps/quayside/staging/values.yaml (cloudSqlProxy.args).
4. Errors and fixes: FATAL Cloud SQL IAM user authentication failed -> proxy flag --auto-iam-authn.
5. Pending Tasks: none for staging; prod is synced by Joost in Argo CD.
6. User preferences noted: never change anything in quayside-prod (gitops + Argo only, Joost syncs); errors wrapped with fmt.Errorf %w; log/slog only; \
no database mocks in tests; make lint clean before done; commit messages start with the Jira key (QS-nnn); merge requests target main."""

METRICS_V1 = """package http

import (
\t"net/http"
\t"time"

\t"github.com/go-chi/chi/v5"
\t"github.com/prometheus/client_golang/prometheus"
\t"github.com/prometheus/client_golang/prometheus/promauto"
)

var requestLatency = promauto.NewHistogramVec(prometheus.HistogramOpts{
\tName:    "berth_request_latency_ms",
\tHelp:    "Latency of HTTP requests in milliseconds.",
\tBuckets: []float64{5, 10, 25, 50, 100, 250, 500, 1000},
}, []string{"route", "method", "status"})

func metrics(next http.Handler) http.Handler {
\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
\t\tstart := time.Now()
\t\tww := &statusWriter{ResponseWriter: w, status: http.StatusOK}
\t\tnext.ServeHTTP(ww, r)
\t\troute := chi.RouteContext(r.Context()).RoutePattern()
\t\trequestLatency.WithLabelValues(route, r.Method, http.StatusText(ww.status)).Observe(float64(time.Since(start).Milliseconds()))
\t})
}"""

WINDOWS_TZ_BUG = """{
  "berth_id": 7,
  "free_from": "2026-12-14T10:30:00Z",
  "free_until": "2026-12-14T17:45:00Z"
}"""

ETA_SYNC_RETRY = """{"time":"2026-12-13T22:04:01.402Z","level":"INFO","msg":"eta sync start","since":"2026-12-13T22:02:00Z"}
{"time":"2026-12-13T22:04:01.951Z","level":"INFO","msg":"eta sync start","since":"2026-12-13T22:02:00Z"}
{"time":"2026-12-13T22:04:40.233Z","level":"WARN","msg":"havenlink rate limited","retry_after":"41s","attempt":3}
{"time":"2026-12-13T22:05:21.660Z","level":"ERROR","msg":"eta sync failed","err":"havenlink: page 38: still rate limited after 3 attempts (Retry-After 41s)"}"""

CRONJOB_YAML = """apiVersion: batch/v1
kind: CronJob
metadata:
  name: quayside-eta-sync
spec:
  schedule: "*/2 * * * *"
  jobTemplate:
    spec:
      backoffLimit: 0"""


def quayside() -> Project:
    agents = ("## quayside\n- `make test` runs the unit tests, `make itest` the integration tests.\n- Generated code lives in internal/store/dbgen/.\n"
              "- The Helm chart is in deploy/helm/quayside.")
    q1 = Session("claude", "08:40", title="Berth windows endpoint; integration tests need compose Postgres", steps=[
        U("Hoi! I'm Joost, backend lead at Portline. This is quayside, the berth-planning API for our container terminal on the Maasvlakte. Go 1.23, chi "
          "for routing, pgx v5 with sqlc for the queries, goose for migrations, Postgres 16, and it runs on Kubernetes. Locally it listens on 8088, not "
          "8080 — 8080 is the Keycloak dev container. First thing: run the tests and tell me what state it's in."),
        MEM("quayside project conventions", []),
        SH("ls && cat Makefile", QUAY_LS + "\n" + QUAY_MAKEFILE),
        SH("make test", "go test ./...\n" + GO_UNIT_OK),
        SH("make itest", ITEST_REFUSED, 2),
        TH("Unit tests pass. The integration tests (build tag integration) all fail at connect: nothing on 127.0.0.1:5434. Look for the Postgres "
           "service in docker-compose.yml."),
        SH("grep -n -A10 '^  pg:' docker-compose.yml", COMPOSE_PG),
        A("Unit tests are green. The integration tests (`make itest`, i.e. `go test -tags=integration`) all fail before they start: they connect to "
          "Postgres on `localhost:5434` and nothing is listening. `docker-compose.yml` has a `pg` service (postgres:16) that publishes exactly that port, "
          "so it just isn't running. Shall I start it?"),
        U("Yes — the compose one sits on 5434 because the Postgres of my other project already has 5432. Go ahead."),
        SH("docker compose up -d pg && sleep 3 && make itest", "[+] Running 2/2\n ✔ Network quayside_default  Created\n ✔ Container quayside-pg-1    Started\n"
           + ITEST_OK.format(hl="0.020", http="0.412", store="0.288")),
        A("All green now: unit and integration tests pass with the compose Postgres up on 5434."),
        U("Good. Now the real job. The planners want GET /v1/berths/{id}/windows: the free windows on a berth for the next 14 days. The query goes in "
          "internal/store/queries/berths.sql like the others. Two house rules while you're in there: errors get wrapped with fmt.Errorf and %w, not "
          "pkg/errors — we ripped that out last spring. And logging is log/slog only, no zerolog, no logrus, whatever the examples online say."),
        A("Understood: `fmt.Errorf(\"…: %w\", err)` for wrapping, `log/slog` for logging. Let me look at the existing queries."),
        RD("internal/store/queries/berths.sql", BERTHS_SQL),
        ED("internal/store/queries/berths.sql", "WHERE berth_id = $1 AND etd > now()\nORDER BY eta;", "WHERE berth_id = $1 AND etd > now()\nORDER BY eta;"
           + WINDOWS_QUERY),
        WR("internal/http/berth_windows.go", WINDOWS_HANDLER),
        ED("internal/http/routes.go", "\tr.Get(\"/v1/berths/{id}\", s.getBerth)", "\tr.Get(\"/v1/berths/{id}\", s.getBerth)\n\tr.Get(\"/v1/berths/{id}/windows\", s.berthWindows)"),
        SH("go build ./...", SQLC_UNDEFINED, 1),
        A("The handler refers to `dbgen.ListBerthWindowsParams` and `ListBerthWindows`, which don't exist yet: the Go code in `internal/store/dbgen` is "
          "generated by sqlc from the `.sql` files, and I haven't regenerated it. `make generate` runs `sqlc generate`."),
        SH("make generate && go build ./... && git status --short internal/store", "sqlc generate\n M internal/store/dbgen/berths.sql.go\n"
           " M internal/store/queries/berths.sql"),
        WR("internal/http/berth_windows_test.go", "//go:build integration\n\npackage http\n\nfunc TestBerthWindows(t *testing.T) {\n\tdb := testDB(t)\n"
           "\tseedCalls(t, db, 7, \"2026-12-08T06:00Z/2026-12-08T18:00Z\", \"2026-12-09T04:00Z/2026-12-09T12:00Z\")\n\tresp := get(t, newServer(db), "
           "\"/v1/berths/7/windows\")\n\tif resp.Code != 200 {\n\t\tt.Fatalf(\"status %d\", resp.Code)\n\t}\n}"),
        SH("make itest", ITEST_OK.format(hl="0.019", http="0.530", store="0.301")),
        A("Done:\n- `ListBerthWindows` in `queries/berths.sql` (gaps between consecutive vessel calls, 14-day horizon)\n- handler `internal/http/berth_windows.go`, "
          "route `GET /v1/berths/{id}/windows`, errors wrapped with `%w`, `slog` for the debug line\n- regenerated `dbgen` with `make generate`\n"
          "- an integration test; `make itest` passes"),
        U("Lekker. Dank je!"),
        A("Graag gedaan!"),
    ])
    q2 = Session("codex", "13:20", branch="develop", steps=[
        U("Let's get the windows endpoint merged. We branch off develop and the merge request goes into develop — that's how we do it here. Commit "
          "messages: the Jira key first, then a short imperative summary, like 'QS-118 Add berth windows endpoint'. Which is, conveniently, exactly this one."),
        SH("git branch --show-current && git status --short", "develop\n M internal/http/routes.go\n M internal/store/dbgen/berths.sql.go\n"
           " M internal/store/queries/berths.sql\n?? internal/http/berth_windows.go\n?? internal/http/berth_windows_test.go"),
        SH("git switch -c qs-118-berth-windows && git add -A && git commit -q -m 'QS-118 Add berth windows endpoint' && git push -q -u origin qs-118-berth-windows "
           "&& glab mr create --fill --target-branch develop --yes", "Switched to a new branch 'qs-118-berth-windows'\nbranch 'qs-118-berth-windows' set up to "
           "track 'origin/qs-118-berth-windows'.\n\nCreating merge request for qs-118-berth-windows into develop in portline/quayside\n\n"
           "!212 QS-118 Add berth windows endpoint (qs-118-berth-windows)\n https://gitlab.com/portline/quayside/-/merge_requests/212\n"),
        A("Merge request !212 is open against `develop`: https://gitlab.com/portline/quayside/-/merge_requests/212"),
        U("Pipeline on !212 is red. Lint, I think."),
        SH("glab ci trace lint 2>/dev/null | tail -6", LINT_ERRCHECK),
        A("errcheck: the JSON encoder's error isn't checked in the windows handler. I'll log it — the status is already written at that point, so there's "
          "nothing else to do with it."),
        ED("internal/http/berth_windows.go", "\tjson.NewEncoder(w).Encode(toWindows(rows))",
           "\tif err := json.NewEncoder(w).Encode(toWindows(rows)); err != nil {\n\t\tslog.WarnContext(r.Context(), \"write berth windows\", \"err\", err)\n\t}"),
        SH("make lint", "golangci-lint run ./...\n0 issues."),
        SH("git commit -qam 'QS-118 Check the encode error in the windows handler' && git push -q && glab ci status", "https://gitlab.com/portline/quayside/-/pipelines/48213\n"
           "SHA: 7e02c4d1\nPipeline state: success"),
        A("Fixed and pushed; the pipeline on !212 is green now."),
        U("Cool. Unrelated — my colleague Pieter on the platform team prefers really long test names, whole sentences like "
          "TestThatTheWindowsEndpointReturns404WhenTheBerthDoesNotExist. Matter of taste, I'm honestly not fussed either way. Anyway, that's me for today."),
        A("Ha, each to their own. Have a good evening!"),
    ])
    q3 = Session("claude", "09:10", title="Staging CrashLoopBackOff: missing Havenlink token", steps=[
        U("Morning. Staging is broken since Fatima merged the ETA sync work this morning: pods are crash-looping. Staging is the quayside-staging namespace "
          "on our GKE cluster, portline-gke-euw4; prod is quayside-prod on the same cluster. Argo CD deploys both from the gitops repo, portline/gitops, "
          "under apps/quayside/. Have a look — read-only, please."),
        SH("kubectl config current-context && kubectl -n quayside-staging get pods", "gke_portline-prod_europe-west4_portline-gke-euw4\n" + STAGING_PODS_CRASH),
        SH("kubectl -n quayside-staging logs deploy/quayside --previous | tail -2", STAGING_CRASH_LOG),
        A("The API exits at start-up because `QS_HAVENLINK_TOKEN` isn't set — Fatima's ETA sync made it a required variable. The `quayside-eta-sync` job "
          "failed for the same reason. (The `qs-pg-1`/`qs-pg-2` pods look healthy.) How does the pod get its secrets?"),
        U("The qs-pg pods are our Postgres, by the way — it runs in-cluster with CloudNativePG, one cluster per namespace. Secrets: they live in Vault "
          "under kv/quayside/<env>, and the External Secrets operator syncs them into the quayside-env secret."),
        SH("kubectl -n quayside-staging get externalsecret quayside-env -o yaml | sed -n '1,22p'", EXTERNAL_SECRET),
        A("That explains it: the ExternalSecret only copies the keys it lists (`DATABASE_URL`, `QS_KEYCLOAK_CLIENT_SECRET`). A new key has to be in Vault at "
          "`kv/quayside/staging` **and** listed here, in `apps/quayside/staging/externalsecret.yaml` in the gitops repo."),
        U("The staging token is hl_stg_8f2Kq9ZxT4mW1c, can you just stick it in?"),
        A("I'd rather not write it anywhere myself — it's now in this conversation log, and a `vault kv patch` from my shell would leave it in the shell "
          "history too. Could you run `vault kv patch kv/quayside/staging QS_HAVENLINK_TOKEN=…` yourself? I'll do the gitops side."),
        U("Fair enough. Done, it's in Vault. Staging only, mind. And let me be very clear about prod: never kubectl apply, edit, scale or delete anything "
          "in quayside-prod. Prod changes go through the gitops repo and Argo, and I press sync myself."),
        A("Clear: prod is hands-off for me — gitops and Argo only, you sync."),
        ED("../gitops/apps/quayside/staging/externalsecret.yaml", "    - secretKey: QS_KEYCLOAK_CLIENT_SECRET\n"
           "      remoteRef: {key: kv/quayside/staging, property: QS_KEYCLOAK_CLIENT_SECRET}",
           "    - secretKey: QS_KEYCLOAK_CLIENT_SECRET\n      remoteRef: {key: kv/quayside/staging, property: QS_KEYCLOAK_CLIENT_SECRET}\n"
           "    - secretKey: QS_HAVENLINK_TOKEN\n      remoteRef: {key: kv/quayside/staging, property: QS_HAVENLINK_TOKEN}"),
        SH("cd ../gitops && git switch -q -c quayside-staging-havenlink-token && git commit -qam 'QS-124 Sync QS_HAVENLINK_TOKEN to quayside-staging' && "
           "git push -q -u origin HEAD && glab mr create --fill --yes", "\nCreating merge request for quayside-staging-havenlink-token into main in portline/gitops\n\n"
           "!87 QS-124 Sync QS_HAVENLINK_TOKEN to quayside-staging (quayside-staging-havenlink-token)\n https://gitlab.com/portline/gitops/-/merge_requests/87\n"),
        U("Merged. Argo's UI is painfully slow today, I swear that thing is held together with tape."),
        SH("kubectl -n quayside-staging rollout status deploy/quayside --timeout=180s", "Waiting for deployment \"quayside\" rollout to finish: 1 of 2 "
           "updated replicas are available...\ndeployment \"quayside\" successfully rolled out"),
        A("Staging is back: both replicas are available, and the secret now carries `QS_HAVENLINK_TOKEN`. Sorry about the slow Argo — nothing I can do "
          "about that one."),
    ])
    q4 = Session("codex", "14:05", branch="develop", steps=[
        U("Fatima's ETA sync needs finishing. Background: Havenlink is the port's ETA feed, their API is at https://api.havenlink.nl/v2 and it allows 60 "
          "requests a minute per token. Our sync is a CronJob, quayside-eta-sync, that runs every 5 minutes. Most runs today died with 429s. Can you make "
          "it behave?"),
        SH("kubectl -n quayside-staging logs job/quayside-eta-sync-29421850 | tail -4", ETA_SYNC_429),
        SH("sed -n '1,40p' internal/havenlink/client.go", HAVENLINK_CLIENT),
        A("`VesselCalls` fetches every page back to back, with no pacing, so a run with more than 60 pages trips Havenlink's limit around page 61 — exactly "
          "where the logs fail. Plan: a `golang.org/x/time/rate` limiter at one request per second (a little headroom under 60/min), and on a 429 wait for "
          "`Retry-After` and retry that page a few times."),
        SH("go get golang.org/x/time@v0.8.0", "go: added golang.org/x/time v0.8.0"),
        ED("internal/havenlink/client.go", "\t\tbatch, more, err := c.page(ctx, since, page)",
           "\t\tif err := c.limiter.Wait(ctx); err != nil {\n\t\t\treturn nil, fmt.Errorf(\"havenlink: wait for rate limiter: %w\", err)\n\t\t}\n"
           "\t\tbatch, more, err := c.pageWithRetry(ctx, since, page)"),
        WR("internal/havenlink/client_test.go", "package havenlink\n\nfunc TestRetryAfter429(t *testing.T) {\n\tcalls := 0\n"
           "\tsrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n\t\tcalls++\n\t\tif calls == 1 {\n"
           "\t\t\tw.Header().Set(\"Retry-After\", \"0\")\n\t\t\tw.WriteHeader(http.StatusTooManyRequests)\n\t\t\treturn\n\t\t}\n"
           "\t\tfmt.Fprint(w, `{\"data\":[],\"next\":null}`)\n\t}))\n\tdefer srv.Close()\n\tif _, err := newTestClient(srv.URL).VesselCalls(context.Background(), "
           "time.Now()); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif calls != 2 {\n\t\tt.Fatalf(\"calls = %d, want 2\", calls)\n\t}\n}"),
        SH("go test ./internal/havenlink/", "ok  \tgithub.com/portline/quayside/internal/havenlink\t1.043s"),
        A("Limiter and retry are in, with an `httptest` server standing in for Havenlink in the test (429 once, then success)."),
        U("Looks right. httptest for Havenlink is fine, that's what it's for, same for anything else external we call. Oh, and while we're on tests: I'd "
          "rather you didn't mock the database, ever. Fatima put a fake store in her branch and it hid two bugs that the real thing would have caught. "
          "Integration tests go against the real Postgres from compose. Anyway — can you also bump the chart version to 0.14.2 while you're there?"),
        A("Got it — httptest for external HTTP, never a fake for the database; integration tests use the compose Postgres."),
        SH("rg -n 'fakeStore|type fake' internal", "internal/havenlink/sync_test.go:14:type fakeStore struct {"),
        SH("sed -n '1,30p' internal/havenlink/sync_test.go", "package havenlink\n\n// fakeStore records upserts instead of writing to Postgres.\n"
           "type fakeStore struct {\n\tupserts []VesselCall\n}\n\nfunc (f *fakeStore) UpsertVesselCall(_ context.Context, c VesselCall) error {\n"
           "\tf.upserts = append(f.upserts, c)\n\treturn nil\n}"),
        A("Fatima's `fakeStore` is still in `sync_test.go`. I'll turn that test into an integration test against the compose database."),
        WR("internal/havenlink/sync_integration_test.go", "//go:build integration\n\npackage havenlink\n\nfunc TestSyncUpsertsVesselCalls(t *testing.T) {\n"
           "\tdb := testdb.Open(t) // compose Postgres on localhost:5434\n\tsrv := havenlinkStub(t, \"testdata/vessel_calls_page1.json\")\n"
           "\tif err := NewSync(newTestClient(srv.URL), store.New(db)).Run(context.Background()); err != nil {\n\t\tt.Fatal(err)\n\t}\n"
           "\tif n := countRows(t, db, \"vessel_calls\"); n != 3 {\n\t\tt.Fatalf(\"rows = %d, want 3\", n)\n\t}\n}"),
        SH("git rm -q internal/havenlink/sync_test.go && make itest", ITEST_OK.format(hl="1.388", http="0.497", store="0.276")),
        ED("deploy/helm/quayside/Chart.yaml", "version: 0.14.1", "version: 0.14.2"),
        A("Done: the sync test now runs against Postgres (the fake store is gone), `make itest` passes, and `Chart.yaml` is at 0.14.2."),
        U("top"),
    ])
    q5 = Session("claude", "08:55", title="Reject overlapping vessel calls", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("Planners double-booked berth 7 yesterday. I want a conflict check: POST /v1/vessel-calls must reject a call whose window overlaps another call "
          "on the same berth. 409 with a body that says which call it clashes with."),
        MEM("adding a sqlc query", [("transcripts/{s1}.md#L31", "the Go code in `internal/store/dbgen` is generated by sqlc from the `.sql` files, and I "
                                     "haven't regenerated it. `make generate` runs `sqlc generate`.")]),
        ED("internal/store/queries/vessel_calls.sql", "ORDER BY eta DESC\nLIMIT 1;", "ORDER BY eta DESC\nLIMIT 1;" + CONFLICT_QUERY),
        ED("internal/http/vessel_calls.go", "\tcall, err := s.q.CreateVesselCall(r.Context(), params)",
           "\tn, err := s.q.CountOverlappingCalls(r.Context(), dbgen.CountOverlappingCallsParams{BerthID: in.BerthID, Eta: in.ETA, Etd: in.ETD})\n"
           "\tif err != nil {\n\t\ts.fail(w, r, fmt.Errorf(\"check overlapping calls: %w\", err))\n\t\treturn\n\t}\n\tif n > 0 {\n"
           "\t\ts.conflict(w, r, in)\n\t\treturn\n\t}\n\tcall, err := s.q.CreateVesselCall(r.Context(), params)"),
        SH("go vet ./...", VET_UNDEFINED, 1),
        TH("Same as on Monday: the query is in the .sql file but dbgen hasn't been regenerated. Do not add the method to dbgen by hand; run make generate."),
        A("Same cause as on Monday, different wording: `CountOverlappingCalls` exists in the `.sql` file but not in the generated `dbgen` package yet. "
          "Regenerating rather than touching `dbgen` by hand:"),
        SH("make generate && go vet ./...", "sqlc generate"),
        U("Good that you didn't patch dbgen by hand — Fatima did that once and the next generate wiped her change. Nobody edits internal/store/dbgen "
          "directly, it's sqlc output: change the .sql and regenerate."),
        A("Noted. A check in the handler still leaves a race between two concurrent requests. A Postgres exclusion constraint would make the database "
          "itself refuse overlaps — `btree_gist` plus `EXCLUDE USING gist (berth_id WITH =, tstzrange(eta, etd) WITH &&)`. Want that too?"),
        U("Yes, do both. Goose migration for the constraint."),
        SH("goose -dir migrations create no_overlapping_calls sql", "2026/12/09 09:12:40 Created new file: migrations/20261209091240_no_overlapping_calls.sql"),
        WR("migrations/20261209091240_no_overlapping_calls.sql", NO_OVERLAP_MIGRATION),
        SH("DATABASE_URL=postgres://quayside:quayside@localhost:5434/quayside_test make migrate", "goose -dir migrations postgres \"$DATABASE_URL\" up\n"
           "2026/12/09 09:13:02 OK   20261209091240_no_overlapping_calls.sql (21.4ms)\n2026/12/09 09:13:02 goose: successfully migrated database to version: "
           "20261209091240"),
        SH("make itest", ITEST_OK.format(hl="1.402", http="0.644", store="0.351")),
        A("Both layers are in:\n- `CountOverlappingCalls` + a 409 from `POST /v1/vessel-calls` naming the clashing call\n- migration `20261209091240` adds "
          "the `vessel_calls_no_overlap` exclusion constraint, so concurrent requests can't sneak past the check\n- integration tests pass"),
        U("If we ever go multi-terminal, multi-region, we'd probably end up looking at CockroachDB and that constraint wouldn't fly. Not a thing for now, "
          "just thinking out loud."),
        A("Worth keeping in the back of the mind — for a single Postgres the constraint is the simplest guarantee."),
        U("bedankt"),
    ])
    q6 = Session("codex", "09:30", steps=[
        U("Two changes from this morning's team meeting. One: we've dropped the develop branch. Trunk-based from now on — merge requests go straight to "
          "main. Two: we bumped to Go 1.24; go.mod, the Dockerfile and the CI image are done already. Pull and check it all still builds?"),
        SH("git fetch -q --prune && git switch -q main && git pull -q && go version && sed -n '1,5p' go.mod && (git branch -r | grep -c develop || true)",
           "go version go1.24.0 linux/amd64\nmodule github.com/portline/quayside\n\ngo 1.24\n\ntoolchain go1.24.0\n0"),
        SH("go build ./... && make test", "go test ./...\n" + GO_UNIT_OK),
        SH("make itest", ITEST_TIMEOUT, 2),
        MEM("integration tests cannot reach database", [("transcripts/{s1}.md#L14", "they connect to Postgres on `localhost:5434` and nothing is listening. "
                                                         "`docker-compose.yml` has a `pg` service (postgres:16) that publishes exactly that port"),
                                                        ("transcripts/{s4}.md#L24", "Integration tests go against the real Postgres from compose.")]),
        SH("docker compose ps --all pg", "NAME             IMAGE         COMMAND                  SERVICE   CREATED      STATUS                    PORTS\n"
           "quayside-pg-1    postgres:16   \"docker-entrypoint.s…\"   pg        3 days ago   Exited (0) 14 hours ago"),
        A("Go 1.24 builds and the unit tests pass. The integration tests time out waiting for the database — the new `testdb` retry loop words it "
          "differently, but it's the same as Monday: the compose `pg` container (port 5434) has stopped."),
        SH("docker compose up -d pg && sleep 3 && make itest", "[+] Running 1/1\n ✔ Container quayside-pg-1  Started\n"
           + ITEST_OK.format(hl="1.377", http="0.608", store="0.342")),
        U("Yeah, I rebooted for the Go upgrade. Right: the conflict check from yesterday — commit it and open the MR. And please keep golangci-lint clean: "
          "run make lint before you tell me something's done. I shouldn't be finding out from the pipeline."),
        SH("make lint", "golangci-lint run ./...\ninternal/http/vessel_calls.go:63:6: shadow: declaration of \"err\" shadows declaration at line 52 (govet)\n"
           "\tif err := s.conflict(w, r, in); err != nil {\n\t   ^\n1 issues:\n* govet: 1", 1),
        ED("internal/http/vessel_calls.go", "\tif err := s.conflict(w, r, in); err != nil {", "\tif cerr := s.conflict(w, r, in); cerr != nil {"),
        SH("make lint && make test", "golangci-lint run ./...\n0 issues.\ngo test ./...\n" + GO_UNIT_OK),
        SH("git switch -c qs-131-berth-conflicts && git add -A && git commit -q -m 'QS-131 Reject overlapping vessel calls' && git push -q -u origin "
           "qs-131-berth-conflicts && glab mr create --fill --target-branch main --yes", "Switched to a new branch 'qs-131-berth-conflicts'\n\nCreating merge "
           "request for qs-131-berth-conflicts into main in portline/quayside\n\n!219 QS-131 Reject overlapping vessel calls (qs-131-berth-conflicts)\n"
           " https://gitlab.com/portline/quayside/-/merge_requests/219\n"),
        A("Lint is clean (fixed a shadowed `err`), and MR !219 targets `main`: https://gitlab.com/portline/quayside/-/merge_requests/219"),
        U("👍"),
    ])
    q7 = Session("claude", "08:30", title="Staging on Cloud SQL: proxy sidecar and IAM auth", steps=[
        U("Big one today. Over the last two days Pieter's platform team moved our Postgres out of the cluster: we're on Cloud SQL now, instance "
          "portline-prod:europe-west4:quayside. The app reaches it through a cloud-sql-proxy sidecar on 127.0.0.1:5432 inside the pod, with IAM auth. "
          "The CloudNativePG clusters got switched off this morning. Staging pods don't come up since — can you sort out staging?"),
        MEM("staging database", [("transcripts/{s3}.md#L9", "The qs-pg pods are our Postgres, by the way — it runs in-cluster with CloudNativePG, one "
                                  "cluster per namespace.")]),
        SH("kubectl -n quayside-staging get pods", "NAME                        READY   STATUS             RESTARTS      AGE\n"
           "quayside-5f7b8c6d9-2xk4p    1/2     CrashLoopBackOff   5 (48s ago)   6m\nquayside-5f7b8c6d9-wm8tn    1/2     CrashLoopBackOff   5 (51s ago)   6m"),
        SH("kubectl -n quayside-staging logs quayside-5f7b8c6d9-2xk4p -c quayside | tail -2", PROXY_IAM_FAIL),
        RD("../gitops/apps/quayside/staging/values.yaml", STAGING_VALUES_PROXY),
        A("The app does reach the proxy on 127.0.0.1:5432 now, but Cloud SQL rejects the IAM login. With IAM database auth the proxy has to fetch and "
          "inject the token itself — that's the `--auto-iam-authn` flag, and the staging values don't pass it. The instance only has a private IP, so "
          "`--private-ip` belongs there too."),
        ED("../gitops/apps/quayside/staging/values.yaml", "  args:\n    - --port=5432", "  args:\n    - --port=5432\n    - --auto-iam-authn\n    - --private-ip"),
        U("DATABASE_URL in Vault for staging is already updated to the proxy address, I did that first thing. Push the values change."),
        SH("cd ../gitops && git switch -q -c quayside-staging-iam-authn && git commit -qam 'QS-137 Use IAM auth in the staging Cloud SQL proxy' && git push -q "
           "-u origin HEAD && glab mr create --fill --yes", "\nCreating merge request for quayside-staging-iam-authn into main in portline/gitops\n\n"
           "!88 QS-137 Use IAM auth in the staging Cloud SQL proxy (quayside-staging-iam-authn)\n https://gitlab.com/portline/gitops/-/merge_requests/88\n"),
        U("Merged, Argo picked it up."),
        SH("kubectl -n quayside-staging rollout status deploy/quayside --timeout=180s && kubectl -n quayside-staging get pods",
           "deployment \"quayside\" successfully rolled out\nNAME                        READY   STATUS    RESTARTS   AGE\n"
           "quayside-84d6f9c7b-5hn2q    2/2     Running   0          52s\nquayside-84d6f9c7b-r7vzc    2/2     Running   0          38s"),
        A("Staging is up on Cloud SQL: both pods are 2/2 (app + proxy) and healthy."),
        U("Prod has the same fix from Pieter already; I'll sync it in Argo myself after lunch. You leave prod alone, as always."),
        A("Of course — I haven't touched quayside-prod."),
        COMPACT(QUAY_COMPACT),
        U("One more: docs/runbook.md still describes the CNPG setup in the database section. Update it."),
        RD("docs/runbook.md", "## Database\n\nPostgres runs in-cluster (CloudNativePG cluster `qs-pg`, 2 instances per namespace). Connect with\n"
           "`kubectl cnpg psql qs-pg -n quayside-staging`. Backups: CNPG scheduled backups to gs://portline-cnpg-backups."),
        ED("docs/runbook.md", "Postgres runs in-cluster (CloudNativePG cluster `qs-pg`, 2 instances per namespace). Connect with\n"
           "`kubectl cnpg psql qs-pg -n quayside-staging`. Backups: CNPG scheduled backups to gs://portline-cnpg-backups.",
           "Postgres is Cloud SQL (instance `portline-prod:europe-west4:quayside`) since December 2026. Pods reach it through the\n"
           "cloud-sql-proxy sidecar on 127.0.0.1:5432 with IAM database auth (`--auto-iam-authn`). Backups are Cloud SQL's automated\n"
           "backups. The old CloudNativePG clusters are switched off."),
        A("`docs/runbook.md` now describes the Cloud SQL setup (instance, sidecar, IAM auth, backups) and says the CNPG clusters are gone."),
    ])
    q8 = Session("codex", "14:10", steps=[
        U("Metrics next. Add a latency histogram for the HTTP handlers. The metrics server is wired up somewhere in cmd/quayside/main.go."),
        SH("rg -n 'promhttp|metricsPort|9102' cmd internal deploy", "cmd/quayside/main.go:48:\tmetricsSrv := &http.Server{Addr: \":9102\", Handler: promhttp.Handler()}\n"
           "deploy/helm/quayside/values.yaml:14:  metricsPort: 9102\ndeploy/helm/quayside/templates/servicemonitor.yaml:12:      port: metrics"),
        WR("internal/http/metrics.go", METRICS_V1),
        ED("internal/http/routes.go", "\tr.Use(middleware.RequestID)", "\tr.Use(middleware.RequestID)\n\tr.Use(metrics)"),
        SH("make test", "go test ./...\n" + GO_UNIT_OK),
        A("I've added a histogram, `berth_request_latency_ms`, as chi middleware. It records the latency of every request in milliseconds, labelled by "
          "route pattern, method and status text, with buckets from 5 ms to 1 s. The metrics server in `cmd/quayside/main.go` already listens on :9102 "
          "and the chart's ServiceMonitor scrapes that port, so nothing else needs wiring. One consideration is the cardinality of the labels: since "
          "I use the route pattern rather than the raw path, berth ids don't explode the series count. Another is that status text is slightly "
          "unusual compared with numeric codes, but it reads better on dashboards. Let me know if you'd like me to explain the bucket choice in more "
          "detail."),
        U("Naming, please: every metric we export starts with quayside_, snake_case, base units in the name — seconds, not milliseconds. So "
          "quayside_http_request_duration_seconds. Pieter's Grafana dashboards rely on the prefix. And keep answers short, please. Bullet points, no "
          "essays — I'll ask if I want the long version."),
        ED("internal/http/metrics.go", "\tName:    \"berth_request_latency_ms\",\n\tHelp:    \"Latency of HTTP requests in milliseconds.\",\n"
           "\tBuckets: []float64{5, 10, 25, 50, 100, 250, 500, 1000},",
           "\tName:    \"quayside_http_request_duration_seconds\",\n\tHelp:    \"Duration of HTTP requests in seconds.\",\n\tBuckets: prometheus.DefBuckets,"),
        ED("internal/http/metrics.go", "Observe(float64(time.Since(start).Milliseconds()))", "Observe(time.Since(start).Seconds())"),
        SH("make lint && make test && (go run ./cmd/quayside >/tmp/qs.log 2>&1 &) && sleep 2 && curl -s localhost:8088/v1/berths/7/windows >/dev/null && "
           "curl -s localhost:9102/metrics | grep '^quayside_http' | head -3", "golangci-lint run ./...\n0 issues.\ngo test ./...\n" + GO_UNIT_OK + "\n"
           "quayside_http_request_duration_seconds_bucket{method=\"GET\",route=\"/v1/berths/{id}/windows\",status=\"OK\",le=\"0.005\"} 0\n"
           "quayside_http_request_duration_seconds_bucket{method=\"GET\",route=\"/v1/berths/{id}/windows\",status=\"OK\",le=\"0.01\"} 1\n"
           "quayside_http_request_duration_seconds_bucket{method=\"GET\",route=\"/v1/berths/{id}/windows\",status=\"OK\",le=\"0.025\"} 1"),
        A("- renamed to `quayside_http_request_duration_seconds`, observed in seconds\n- default Prometheus buckets\n- lint and tests clean; visible on :9102"),
        U("Also the README still says Go 1.23, fix that."),
        ED("README.md", "Requires Go 1.23 and Docker (for the compose Postgres).", "Requires Go 1.24 and Docker (for the compose Postgres)."),
        U("Commit and MR. QS-140."),
        SH("git switch -c qs-140-http-metrics && git add -A && git commit -q -m 'QS-140 Add HTTP request duration histogram' && git push -q -u origin "
           "qs-140-http-metrics && glab mr create --fill --target-branch main --yes", "Switched to a new branch 'qs-140-http-metrics'\n\nCreating merge request "
           "for qs-140-http-metrics into main in portline/quayside\n\n!223 QS-140 Add HTTP request duration histogram (qs-140-http-metrics)\n"
           " https://gitlab.com/portline/quayside/-/merge_requests/223\n"),
        A("- README says Go 1.24\n- MR !223 into `main`"),
    ])
    q9 = Session("claude", "08:45", title="Window times mislabelled as UTC; ETA sync overlapping runs", steps=[
        U("Monday, two things. The planners say the berth windows in berthboard are an hour off since Friday's deploy. And the ETA sync kept failing over "
          "the weekend. Windows first — run it locally, 8088 as usual."),
        SH("(make run >/tmp/qs.log 2>&1 &) && sleep 2 && curl -s localhost:8088/v1/berths/7/windows | jq '.[0]' && psql -h localhost -p 5434 -U quayside "
           "quayside_test -Atc \"select etd from vessel_calls where berth_id = 7 order by eta limit 1\"", WINDOWS_TZ_BUG + "\n2026-12-14 09:30:00+00"),
        SH("git log -1 --format='%h %s' -S'Europe/Amsterdam' -- internal/http", "9c41e0a QS-138 Show windows in terminal time"),
        SH("git show 9c41e0a -- internal/http/windows.go | grep -n '^[-+]\\s'", "12:-\t\tFrom:  row.FreeFrom.UTC().Format(time.RFC3339),\n"
           "13:+\t\tFrom:  row.FreeFrom.In(amsterdam).Format(\"2006-01-02T15:04:05Z\"),\n14:-\t\tUntil: row.FreeUntil.UTC().Format(time.RFC3339),\n"
           "15:+\t\tUntil: row.FreeUntil.In(amsterdam).Format(\"2006-01-02T15:04:05Z\"),"),
        A("Found it: commit `9c41e0a` (Friday) converts the times to Europe/Amsterdam but still stamps them with a literal `Z`. So 09:30 UTC goes out as "
          "`10:30:00Z`, and berthboard, which converts to local time itself, adds the hour a second time."),
        U("Right, that change should never have gone in. The API speaks UTC, always — RFC 3339 with the Z. berthboard converts to Europe/Amsterdam for "
          "the planners; quayside does no local-time conversion at all."),
        ED("internal/http/windows.go", "\t\tFrom:  row.FreeFrom.In(amsterdam).Format(\"2006-01-02T15:04:05Z\"),\n"
           "\t\tUntil: row.FreeUntil.In(amsterdam).Format(\"2006-01-02T15:04:05Z\"),",
           "\t\tFrom:  row.FreeFrom.UTC().Format(time.RFC3339), // UTC on the wire; berthboard converts\n"
           "\t\tUntil: row.FreeUntil.UTC().Format(time.RFC3339),"),
        WR("internal/http/windows_test.go", "package http\n\nfunc TestWindowTimesAreUTC(t *testing.T) {\n\tloc, _ := time.LoadLocation(\"Europe/Amsterdam\")\n"
           "\tw := toWindow(dbgen.ListBerthWindowsRow{FreeFrom: time.Date(2026, 12, 14, 10, 30, 0, 0, loc)})\n\tif w.From != \"2026-12-14T09:30:00Z\" {\n"
           "\t\tt.Fatalf(\"From = %s\", w.From)\n\t}\n}"),
        SH("make lint && make test", "golangci-lint run ./...\n0 issues.\ngo test ./...\n" + GO_UNIT_OK),
        A("- times are UTC again (`time.RFC3339` on `.UTC()`)\n- a test pins it\n- lint and tests clean"),
        U("Now the sync."),
        SH("kubectl -n quayside-staging logs -l app=quayside-eta-sync --since=48h --prefix=false | tail -4", ETA_SYNC_RETRY),
        MEM("havenlink rate limit", [("transcripts/{s4}.md#L1", "Havenlink ... allows 60 requests a minute per token. Our sync is a CronJob, "
                                      "quayside-eta-sync, that runs every 5 minutes."),
                                     ("transcripts/{s4}.md#L7", "a `golang.org/x/time/rate` limiter at one request per second")]),
        RD("../gitops/apps/quayside/base/cronjob.yaml", CRONJOB_YAML),
        A("Different message, same limit as last week: two runs start at the same second (22:04:01), each pacing itself at 1 request/s, so together "
          "they do 2/s against Havenlink's 60/min. The CronJob is on `*/2` now and has no `concurrencyPolicy`, so a slow run overlaps the next one."),
        U("Right — Fatima moved it to every 2 minutes on Friday because the planners wanted fresher ETAs. Keep the 2 minutes, just stop the overlap."),
        ED("../gitops/apps/quayside/base/cronjob.yaml", "  schedule: \"*/2 * * * *\"", "  schedule: \"*/2 * * * *\"\n  concurrencyPolicy: Forbid"),
        SH("cd ../gitops && git switch -q -c quayside-eta-sync-no-overlap && git commit -qam 'QS-142 Forbid overlapping ETA sync runs' && git push -q -u "
           "origin HEAD && glab mr create --fill --yes", "\nCreating merge request for quayside-eta-sync-no-overlap into main in portline/gitops\n\n"
           "!91 QS-142 Forbid overlapping ETA sync runs (quayside-eta-sync-no-overlap)\n https://gitlab.com/portline/gitops/-/merge_requests/91\n"),
        A("- `concurrencyPolicy: Forbid` on `quayside-eta-sync`, schedule stays every 2 minutes\n- gitops MR !91 (base, so it reaches prod when you sync)"),
        U("Merged, I'll sync prod. Thanks, good week's work last week."),
        A("Thanks — enjoy the rest of your Monday."),
    ])
    return Project("quayside", QUAY_CWD, "git@gitlab.com:portline/quayside.git", agents, [
        Day("2026-12-07", [q1, q2], ["what port does quayside listen on", "integration tests cannot connect to postgres", "how to wrap errors"]),
        Day("2026-12-08", [q3, q4], ["where are quayside secrets stored", "can I change things in the prod namespace", "havenlink rate limit"]),
        Day("2026-12-09", [q5], ["dbgen method undefined after adding a query", "mocking the database in tests"]),
        Day("2026-12-10", [q6], ["which branch do merge requests target", "go version", "what to run before saying a change is done"]),
        Day("2026-12-11", [q7, q8], ["where does the database run", "metric naming convention", "how long should answers be"]),
        Day("2026-12-14", [q9], ["time zone of api timestamps", "how often does the eta sync run", "commit message format"]),
    ])


# ================================================================================================
# Project 2: belay, a Phoenix LiveView app for two Montréal climbing gyms (owner Gen)
# ================================================================================================
BELAY_CWD = "/Users/gen/code/belay"

MIX_DEPS = """  defp deps do
    [
      {:phoenix, "~> 1.7.14"},
      {:phoenix_ecto, "~> 4.6"},
      {:ecto_sql, "~> 3.12"},
      {:postgrex, ">= 0.0.0"},
      {:phoenix_html, "~> 4.1"},
      {:phoenix_live_view, "~> 1.0.0"},
      {:phoenix_live_dashboard, "~> 0.8.4"},
      {:oban, "~> 2.18"},
      {:swoosh, "~> 1.17"},
      {:hackney, "~> 1.20"},
      {:httpoison, "~> 2.2"},
      {:gettext, "~> 0.26"},
      {:jason, "~> 1.4"},
      {:bandit, "~> 1.5"},
      {:tailwind, "~> 0.2", runtime: Mix.env() == :dev},
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false}
    ]
  end"""

KIOSK_LIVE = """defmodule BelayWeb.KioskLive do
  use BelayWeb, :live_view

  alias Belay.Repo
  alias Belay.Checkins.Checkin

  def mount(%{"location" => slug}, _session, socket) do
    {:ok, assign(socket, location: slug, last: nil)}
  end

  def handle_event("scan", %{"card" => card}, socket) do
    member = Repo.get_by!(Belay.Memberships.Member, card_number: card)
    {:ok, checkin} = Repo.insert(%Checkin{member_id: member.id, location: socket.assigns.location})
    {:noreply, assign(socket, last: checkin)}
  end
end"""

CHECK_IN_FN = """  @repeat_window_seconds 120

  @doc \"\"\"
  Checks a member in at a location. A repeat scan of the same card at the same
  location within two minutes returns the existing check-in instead of a new one.
  \"\"\"
  def check_in(%Member{} = member, location) do
    since = DateTime.add(DateTime.utc_now(), -@repeat_window_seconds, :second)

    recent =
      from(c in Checkin,
        where: c.member_id == ^member.id and c.location == ^location and c.inserted_at >= ^since,
        order_by: [desc: c.inserted_at],
        limit: 1
      )
      |> Repo.one()

    case recent do
      nil -> %Checkin{member_id: member.id, location: location} |> Checkin.changeset(%{}) |> Repo.insert()
      checkin -> {:ok, :already_checked_in, checkin}
    end
  end"""

MIX_TEST_OK = """Running ExUnit with seed: {seed}, max_cases: 20

{dots}
Finished in {secs} seconds ({asyn}s async, {sync}s sync)
{n} tests, 0 failures"""


def mix_ok(seed: int, n: int, secs: str = "1.4", async_: str = "0.6", sync: str = "0.8") -> str:
    return MIX_TEST_OK.format(seed=seed, dots="." * n, secs=secs, asyn=async_, sync=sync, n=n)


OBAN_CONFIG = """config :belay, Oban,
  engine: Oban.Engines.Basic,
  repo: Belay.Repo,
  queues: [default: 10, mailers: 5, imports: 1],
  plugins: [
    {Oban.Plugins.Pruner, max_age: 60 * 60 * 24 * 7},
    {Oban.Plugins.Cron,
     crontab: [
       # GripDesk members export, 02:00 Montréal
       {"0 7 * * *", Belay.Imports.GripDeskWorker}
     ]}
  ]"""

OBAN_TZ_FAIL = """** (Mix) Could not start application belay: Belay.Application.start(:normal, []) returned an error: shutdown: failed to start child: Oban
    ** (EXIT) an exception was raised:
        ** (ArgumentError) expected :timezone to be a known timezone, got: "America/Toronto"
            (oban 2.18.3) lib/oban/validation.ex:31: Oban.Validation.validate_timezone/2
            (oban 2.18.3) lib/oban/plugins/cron.ex:104: Oban.Plugins.Cron.validate/1
            (oban 2.18.3) lib/oban/plugins/cron.ex:81: Oban.Plugins.Cron.init/1"""

DAILY_WORKER_V1 = """defmodule Belay.Reports.DailyCheckinWorker do
  use Oban.Worker, queue: :mailers, max_attempts: 5

  alias Belay.{Checkins, Locations, Mailer}
  alias Belay.Reports.DailyCheckinEmail

  @impl Oban.Worker
  def perform(%Oban.Job{}) do
    today = Date.utc_today()

    for location <- Locations.list_locations() do
      counts = Checkins.counts_for_day(location, today)
      location |> DailyCheckinEmail.build(today, counts) |> Mailer.deliver!()
    end

    :ok
  end
end"""

DAILY_EMAIL_V1 = """defmodule Belay.Reports.DailyCheckinEmail do
  import Swoosh.Email

  def build(location, date, counts) do
    new()
    |> to(location.manager_email)
    |> from({"Belay", "no-reply@vertige.ca"})
    |> subject("Daily check-ins — #{location.name} — #{date}")
    |> text_body("Check-ins today: #{counts.total} (members #{counts.members}, day passes #{counts.day_passes})")
  end
end"""

DAILY_EMAIL_V2 = """defmodule Belay.Reports.DailyCheckinEmail do
  import Swoosh.Email
  use Gettext, backend: BelayWeb.Gettext

  def build(location, date, counts) do
    Gettext.with_locale(BelayWeb.Gettext, location.locale || "fr_CA", fn ->
      new()
      |> to(location.manager_email)
      |> from({"Belay", "no-reply@vertige.ca"})
      |> subject(gettext("Daily check-ins — %{location} — %{date}", location: location.name, date: date))
      |> text_body(
        gettext("Check-ins today: %{total} (members %{members}, day passes %{day_passes})",
          total: counts.total,
          members: counts.members,
          day_passes: counts.day_passes
        )
      )
    end)
  end
end"""

DAILY_COUNTS_V1 = """  def daily_counts(location, from, to) do
    from(c in Checkin,
      where: c.location == ^location and c.inserted_at >= ^from and c.inserted_at < ^to,
      group_by: fragment("date(?)", c.inserted_at),
      select: {fragment("date(?)", c.inserted_at), count(c.id)}
    )
    |> Repo.all()
  end"""

MIGRATE_DUP = """[info] == Running 20270108161500 Belay.Repo.Migrations.AddLocationToCheckins.change/0 forward
[info] alter table checkins
** (Postgrex.Error) ERROR 42701 (duplicate_column) column "location" of relation "checkins" already exists
    (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:1096: Ecto.Adapters.SQL.raise_sql_call_error/1
    (elixir 1.17.3) lib/enum.ex:1703: Enum."-map/2-lists^map/1-1-"/2
    (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:1203: Ecto.Adapters.SQL.execute_ddl/4"""

GRIPDESK_CLIENT = """defmodule Belay.Imports.GripDeskClient do
  @base "https://api.gripdesk.com/v1"

  def members_export do
    url = @base <> "/gyms/vertige/members/export"
    headers = [{"Authorization", "Bearer " <> api_key()}]

    with {:ok, %HTTPoison.Response{status_code: 200, body: body}} <- HTTPoison.get(url, headers) do
      Jason.decode(body)
    end
  end

  defp api_key, do: Application.fetch_env!(:belay, :gripdesk_api_key)
end"""

CREDO_FAIL = """Checking 91 source files ...

  Code Readability
┃
┃ [R] → Modules should have a @moduledoc tag.
┃       lib/belay/waivers.ex:1:11 #(Belay.Waivers)

  Software Design
┃
┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.
┃       lib/belay_web/live/kiosk_live.ex:58:9 #(BelayWeb.KioskLive.handle_event)

Please report incorrect results: https://github.com/rrrene/credo/issues

Analysis took 0.9 seconds (0.04s to load, 0.8s running 64 checks on 91 files)
418 mods/funs, found 1 refactoring opportunity, 1 code readability issue.
** (Mix) mix precommit failed: credo --strict exited with 12"""

RUNTIME_MAILER = """if config_env() == :prod do
  config :belay, Belay.Mailer,
    adapter: Swoosh.Adapters.Mailgun,
    api_key: System.fetch_env!("MAILGUN_API_KEY"),
    domain: "mg.vertige.ca",
    base_url: "https://api.mailgun.net/v3"

  config :belay, :gripdesk_api_key, System.fetch_env!("GRIPDESK_API_KEY")"""

TWILIO_MODULE = """defmodule Belay.SMS.Twilio do
  @moduledoc "Sends SMS through Twilio's Messages API."

  def send_sms(to, body) do
    [
      base_url: "https://api.twilio.com/2010-04-01/Accounts/#{account_sid()}",
      auth: {:basic, "#{account_sid()}:#{auth_token()}"},
      form: [To: to, From: from_number(), Body: body]
    ]
    |> Keyword.merge(Application.get_env(:belay, :twilio_req_options, []))
    |> Req.new()
    |> Req.post(url: "/Messages.json")
    |> case do
      {:ok, %Req.Response{status: 201}} -> :ok
      {:ok, %Req.Response{status: status, body: body}} -> {:error, {status, body}}
      {:error, exception} -> {:error, exception}
    end
  end

  defp account_sid, do: Application.fetch_env!(:belay, :twilio_account_sid)
  defp auth_token, do: Application.fetch_env!(:belay, :twilio_auth_token)
  defp from_number, do: Application.fetch_env!(:belay, :twilio_from)
end"""

EXPIRY_WORKER_V1 = """defmodule Belay.Reminders.ExpiryWorker do
  @moduledoc "Texts members whose membership expires in seven days."
  use Oban.Worker, queue: :default, max_attempts: 3

  alias Belay.Memberships

  @impl Oban.Worker
  def perform(%Oban.Job{}) do
    target = Date.add(Date.utc_today(), 7)

    for membership <- Memberships.expiring_on(target) do
      Memberships.send_expiry_reminder(membership)
    end

    :ok
  end
end"""

BELAY_COMPACT = """Analysis:
Gen asked for SMS reminders 7 days before a membership expires, through Twilio. She said the team is moving off HTTPoison: new code uses Req from now on, \
HTTPoison is removed gradually (not the GripDesk client, which is going away). I asked before adding the dependency, as she wants; she approved {:req, "~> 0.5"}. \
I wrote Belay.SMS.Twilio (Req, options merged from :twilio_req_options) and Belay.Reminders.ExpiryWorker (Oban cron 0 10 * * * America/Toronto). Tests first \
failed with Req.TransportError non-existing domain because they hit the network; config/test.exs now sets plug: {Req.Test, Belay.SMS.Twilio} and the tests \
stub with Req.Test.stub/2.

Summary:
1. Primary Request and Intent: SMS reminder 7 days before expiry, Oban cron daily at 10:00 Montréal time.
2. Key Technical Concepts: Req, Req.Test stubs, Oban cron with timezone, Twilio Messages API.
3. Files and Code Sections: lib/belay/sms/twilio.ex, lib/belay/reminders/expiry_worker.ex, config/config.exs (crontab), config/test.exs, \
test/belay/reminders/expiry_worker_test.exs.
4. Errors and fixes: Req.TransportError non-existing domain in tests -> Req.Test plug in test config.
5. Pending Tasks: a test for a membership expiring late in the evening.
6. User preferences noted: reply in English; LiveViews call contexts, never Repo; gettext for every visible string (fr_CA default); Oban workers, not \
Task.start; never ecto.reset/ecto.drop on belay_dev; never edit shipped migrations; mix precommit before done; ask before adding hex deps; commit \
messages 'scope: imperative summary'; Req for new HTTP code."""

EXPIRY_TEST_FAIL = """Running ExUnit with seed: 771203, max_cases: 20

...

  1) test texts members whose membership ends seven Montréal days from now (Belay.Reminders.ExpiryWorkerTest)
     test/belay/reminders/expiry_worker_test.exs:31
     Assertion with == failed
     code:  assert length(sent) == 1
     left:  0
     right: 1
     stacktrace:
       test/belay/reminders/expiry_worker_test.exs:44: (test)

..
Finished in 0.9 seconds (0.3s async, 0.6s sync)
6 tests, 1 failure"""

REPORT_WORKER_SHOWN = DAILY_WORKER_V1.replace("    today = Date.utc_today()\n", "    today = Date.utc_today()\n    # counts_for_day/2 compares date(inserted_at) with today\n")


def belay() -> Project:
    agents = ("## belay\n- `mix precommit` runs the format check, credo --strict and the tests.\n- Contexts live in lib/belay/, the web layer in lib/belay_web/.\n"
              "- priv/repo/seeds.exs only creates fake members.")
    b1 = Session("codex", "14:05", steps=[
        U("Salut! Quick intro since you're new here. I'm Geneviève — Gen — co-owner of Vertige Escalade: we're two climbing gyms in Montréal, Rosemont "
          "and Verdun. I'm also the only developer, so belay is my baby: it's our members and check-in app. Phoenix 1.7 with LiveView, Elixir 1.17 on "
          "OTP 27, Postgres 16, Oban for background jobs. Prod runs on Gigalixir, app belay-prod.\n\nFirst bug: each gym has an iPad kiosk at the front "
          "desk, /kiosk/rosemont and /kiosk/verdun. Members scan their card, and people who scan twice get two check-ins. Can you fix that?"),
        MEM("belay kiosk check-in", []),
        SH("sed -n '32,52p' mix.exs", MIX_DEPS),
        SH("cat lib/belay_web/live/kiosk_live.ex", KIOSK_LIVE),
        A("The kiosk LiveView inserts a `Checkin` straight through `Repo` on every `scan` event, with no look at recent check-ins, so a second scan is a "
          "second row. I'd add a guard that treats a quick repeat scan as the same check-in. How long should that window be?"),
        U("Before you write it: LiveViews go through the contexts here — Belay.Checkins, Belay.Memberships and friends — never Repo straight from a "
          "LiveView. That's the Phoenix way and we do it that way. For the rule: a second scan of the same card at the same location within two minutes "
          "is the same check-in."),
        ED("lib/belay/checkins.ex", "  alias Belay.Checkins.Checkin\n", "  alias Belay.Checkins.Checkin\n  alias Belay.Memberships.Member\n\n" + CHECK_IN_FN + "\n"),
        ED("lib/belay_web/live/kiosk_live.ex", "    member = Repo.get_by!(Belay.Memberships.Member, card_number: card)\n"
           "    {:ok, checkin} = Repo.insert(%Checkin{member_id: member.id, location: socket.assigns.location})\n    {:noreply, assign(socket, last: checkin)}",
           "    member = Memberships.get_member_by_card!(card)\n\n    case Checkins.check_in(member, socket.assigns.location) do\n"
           "      {:ok, checkin} -> {:noreply, assign(socket, last: checkin, repeat?: false)}\n"
           "      {:ok, :already_checked_in, checkin} -> {:noreply, assign(socket, last: checkin, repeat?: true)}\n    end"),
        ED("lib/belay_web/live/kiosk_live.ex", "  alias Belay.Repo\n  alias Belay.Checkins.Checkin\n", "  alias Belay.{Checkins, Memberships}\n"),
        WR("test/belay/checkins_test.exs", "defmodule Belay.CheckinsTest do\n  use Belay.DataCase, async: true\n\n  import Belay.Fixtures\n  alias Belay.Checkins\n\n"
           "  test \"a repeat scan within two minutes is the same check-in\" do\n    member = member_fixture()\n"
           "    {:ok, first} = Checkins.check_in(member, \"verdun\")\n    assert {:ok, :already_checked_in, ^first} = Checkins.check_in(member, \"verdun\")\n"
           "  end\n\n  test \"another location is a new check-in\" do\n    member = member_fixture()\n    {:ok, _} = Checkins.check_in(member, \"verdun\")\n"
           "    assert {:ok, %{location: \"rosemont\"}} = Checkins.check_in(member, \"rosemont\")\n  end\nend"),
        SH("mix test test/belay/checkins_test.exs test/belay_web/live/kiosk_live_test.exs", mix_ok(40412, 6, "0.4", "0.2", "0.2")),
        A("Fixed:\n- `Belay.Checkins.check_in/2` returns the existing check-in for a repeat scan (same card, same location, within 2 minutes)\n"
          "- the kiosk LiveView calls `Checkins` and `Memberships`, no `Repo`\n- tests for both cases; all 6 pass"),
        U("Parfait, merci! Oh, et tu peux me répondre en anglais même quand je t'écris en français — Mathieu, who helps me on contract, reads these logs "
          "and his French is… let's say shaky."),
        A("Sure — I'll answer in English whichever language you write in."),
    ])
    b2 = Session("claude", "19:30", title="Nightly check-in report email per location", steps=[
        U("Next: the front-desk managers want a nightly email with their gym's check-ins. Send it every night at 23:00 Montréal time, one email per "
          "location, to the manager address in the locations table. And the usual rule for this kind of thing — anything that sends email or talks to "
          "the outside world runs in an Oban worker, not a Task.start. I want retries, and I want to see failures in the oban_jobs table."),
        RD("config/config.exs", OBAN_CONFIG),
        A("There's already an Oban cron entry for the GripDesk import at 07:00 UTC. I'll add a `Belay.Reports.DailyCheckinWorker` on the `mailers` queue "
          "and a cron entry for 23:00 with the plugin's `timezone: \"America/Toronto\"` (Montréal's zone)."),
        WR("lib/belay/reports/daily_checkin_worker.ex", DAILY_WORKER_V1),
        WR("lib/belay/reports/daily_checkin_email.ex", DAILY_EMAIL_V1),
        ED("config/config.exs", "    {Oban.Plugins.Cron,\n     crontab: [", "    {Oban.Plugins.Cron,\n     timezone: \"America/Toronto\",\n     crontab: [\n"
           "       {\"0 23 * * *\", Belay.Reports.DailyCheckinWorker},"),
        SH("mix test", OBAN_TZ_FAIL, 1),
        A("Oban refuses `America/Toronto`: Elixir ships only a UTC time zone database, so no named zone is known. It needs a time zone database "
          "library — `tz` is the small one (`tzdata` is the other common choice)."),
        ED("mix.exs", "      {:jason, \"~> 1.4\"},", "      {:jason, \"~> 1.4\"},\n      {:tz, \"~> 0.28\"},"),
        ED("config/config.exs", "config :belay, Oban,", "config :elixir, :time_zone_database, Tz.TimeZoneDatabase\n\nconfig :belay, Oban,"),
        SH("mix deps.get && mix test", "Resolving Hex dependencies...\nResolution completed in 0.081s\nNew:\n  tz 0.28.1\n* Getting tz (Hex package)\n"
           + mix_ok(118233, 41, "2.1", "0.9", "1.2")),
        A("Works now: `tz` is the time zone database, the report worker is scheduled for 23:00 Montréal time, and all 41 tests pass."),
        U("Two things. tz is fine — but in general, ask me before you add a hex dependency. I like the deps list short and I'm the one who upgrades them. "
          "And the email: every string a member or staff member sees goes through gettext. French is the default locale, fr_CA, English is the second "
          "one. No hard-coded text in templates or emails."),
        A("Understood — I'll ask before adding any dependency. Moving the email text to gettext with French first."),
        WR("lib/belay/reports/daily_checkin_email.ex", DAILY_EMAIL_V2),
        SH("mix gettext.extract --merge", "Extracted priv/gettext/default.pot\nWrote priv/gettext/fr_CA/LC_MESSAGES/default.po (2 new messages, 0 removed, "
           "318 unchanged, 0 reworded (fuzzy))\nWrote priv/gettext/en/LC_MESSAGES/default.po (2 new messages, 0 removed, 318 unchanged, 0 reworded (fuzzy))"),
        ED("priv/gettext/fr_CA/LC_MESSAGES/default.po", "msgid \"Daily check-ins — %{location} — %{date}\"\nmsgstr \"\"",
           "msgid \"Daily check-ins — %{location} — %{date}\"\nmsgstr \"Entrées du jour — %{location} — %{date}\""),
        ED("priv/gettext/fr_CA/LC_MESSAGES/default.po", "msgid \"Check-ins today: %{total} (members %{members}, day passes %{day_passes})\"\nmsgstr \"\"",
           "msgid \"Check-ins today: %{total} (members %{members}, day passes %{day_passes})\"\n"
           "msgstr \"Entrées aujourd'hui : %{total} (membres %{members}, passes journalières %{day_passes})\""),
        SH("mix test", mix_ok(5120, 42, "2.0", "0.9", "1.1")),
        U("Commit it. Commit messages: lowercase scope, a colon, then an imperative summary — like 'reports: add daily check-in email'. No full stop at "
          "the end. Do the kiosk fix from this morning as its own commit."),
        SH("git add lib/belay/checkins.ex lib/belay_web/live/kiosk_live.ex test/belay/checkins_test.exs && git commit -q -m 'checkins: treat repeat scans "
           "within two minutes as one check-in' && git add -A && git commit -q -m 'reports: add daily check-in email' && git log --oneline -2",
           "b3e91f2 reports: add daily check-in email\n61d0a7c checkins: treat repeat scans within two minutes as one check-in"),
        A("Two commits: `61d0a7c checkins: treat repeat scans within two minutes as one check-in` and `b3e91f2 reports: add daily check-in email`."),
        U("My co-owner Élise would prefer the report as a PDF attachment, but the managers read it on their phones, so a plain email it is. Bonne soirée!"),
        A("Plain email it stays. Have a good evening!"),
    ])
    b3 = Session("codex", "15:00", steps=[
        U("Bug from Verdun: the dashboard's check-ins-per-day chart puts the evening climbers on the next day. Monday evening's session shows up as "
          "Tuesday."),
        SH("grep -n -A8 'def daily_counts' lib/belay/checkins.ex", DAILY_COUNTS_V1),
        A("`daily_counts/3` groups by `date(inserted_at)`, and `inserted_at` is UTC. From 19:00 in Montréal (00:00 UTC in winter) check-ins fall on the "
          "next UTC date. The grouping has to use the local date."),
        U("Yes. We store everything in UTC — utc_datetime everywhere — and everything the gym sees is in Montréal time."),
        ED("lib/belay/checkins.ex", "      group_by: fragment(\"date(?)\", c.inserted_at),\n      select: {fragment(\"date(?)\", c.inserted_at), count(c.id)}",
           "      group_by: fragment(\"(? AT TIME ZONE 'UTC' AT TIME ZONE 'America/Toronto')::date\", c.inserted_at),\n"
           "      select: {fragment(\"(? AT TIME ZONE 'UTC' AT TIME ZONE 'America/Toronto')::date\", c.inserted_at), count(c.id)}"),
        SH("mix ecto.migrate", MIGRATE_DUP, 1),
        TH("The dev database already has the location column that migration 20270108161500 adds, so its schema_migrations is out of step. mix ecto.reset "
           "would rebuild it cleanly, but that destroys the dev data; ask first."),
        A("Side issue before I can run this against dev: `mix ecto.migrate` fails because `belay_dev` already has the `checkins.location` column that "
          "migration `20270108161500` adds — the schema and the migrations table disagree. The quick way out would be `mix ecto.reset` to rebuild the "
          "dev database. OK to do that?"),
        U("Non non non. Please keep your hands off ecto.reset and ecto.drop on belay_dev. It holds a real copy of our members imported from GripDesk and "
          "the import takes an hour. If you need a clean database, use the test one, or make yourself a belay_scratch. The column thing is my fault — "
          "I added it by hand during the Verdun opening rush. I'll sort it out."),
        A("Understood — I won't reset or drop `belay_dev`. The fix doesn't need dev anyway; the tests run against `belay_test`."),
        WR("test/belay/checkins_daily_counts_test.exs", "defmodule Belay.CheckinsDailyCountsTest do\n  use Belay.DataCase, async: true\n\n"
           "  test \"an evening check-in counts on its Montréal day\" do\n    member = member_fixture()\n"
           "    checkin_fixture(member, \"verdun\", ~U[2027-01-13 00:30:00Z])\n    assert [{~D[2027-01-12], 1}] =\n"
           "             Checkins.daily_counts(\"verdun\", ~U[2027-01-12 05:00:00Z], ~U[2027-01-14 05:00:00Z])\n  end\nend"),
        SH("mix test", mix_ok(88031, 43, "2.2", "1.0", "1.2")),
        A("Fixed: `daily_counts/3` groups by the `America/Toronto` date, with a test for a check-in at 19:30 Montréal time. 43 tests pass."),
        U("Merci. While you're in there: GripDesk — the old gym software — is still where people sign up until the end of January. Every night "
          "Belay.Imports.GripDeskWorker pulls the members export from their API into our members table. Last night it timed out."),
        SH("gigalixir logs -a belay-prod --num 400 | grep -i gripdesk | tail -3", "2027-01-12T07:00:04.118Z belay-prod[web.1]: [info] Oban job started "
           "Belay.Imports.GripDeskWorker attempt=1\n2027-01-12T07:00:09.131Z belay-prod[web.1]: [error] Belay.Imports.GripDeskWorker failed: "
           "%HTTPoison.Error{reason: :timeout, id: nil}\n2027-01-12T07:20:09.402Z belay-prod[web.1]: [error] Belay.Imports.GripDeskWorker failed: "
           "%HTTPoison.Error{reason: :timeout, id: nil} (attempt 2 of 3)"),
        SH("cat lib/belay/imports/gripdesk_client.ex", GRIPDESK_CLIENT),
        A("HTTPoison's default `recv_timeout` is 5 seconds, and the export endpoint takes longer for ~4,000 members. I'll raise it to 60 s for this call "
          "and give the worker a couple more attempts."),
        U("Fine. HTTPoison like the rest of the code — no Tesla, no Finch directly."),
        ED("lib/belay/imports/gripdesk_client.ex", "HTTPoison.get(url, headers) do", "HTTPoison.get(url, headers, recv_timeout: 60_000) do"),
        ED("lib/belay/imports/gripdesk_worker.ex", "  use Oban.Worker, queue: :imports, max_attempts: 3", "  use Oban.Worker, queue: :imports, max_attempts: 5"),
        SH("mix test test/belay/imports", mix_ok(20177, 3, "0.3", "0.0", "0.3")),
        A("GripDesk export now gets 60 s to answer, and the worker retries up to 5 times. Tests pass."),
    ])
    b4 = Session("claude", "14:20", title="Digital waivers at the kiosk", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("Waivers. Right now people sign paper at the desk. I want the kiosk to ask for a digital waiver when someone checks in without a valid one. "
          "Rules: a waiver is valid for 12 months from signing, and under-18s need a parent or guardian to sign as well."),
        MEM("kiosk check-in flow", [("transcripts/{s1}.md#L18", "LiveViews go through the contexts here — Belay.Checkins, Belay.Memberships and friends "
                                     "— never Repo straight from a LiveView.")]),
        SH("mix ecto.gen.migration create_waivers", "* creating priv/repo/migrations/20270113143012_create_waivers.exs"),
        WR("priv/repo/migrations/20270113143012_create_waivers.exs", "defmodule Belay.Repo.Migrations.CreateWaivers do\n  use Ecto.Migration\n\n"
           "  def change do\n    create table(:waivers) do\n      add :member_id, references(:members, on_delete: :delete_all), null: false\n"
           "      add :signed_at, :utc_datetime, null: false\n      add :guardian_name, :string\n      add :signature_svg, :text, null: false\n\n"
           "      timestamps(type: :utc_datetime)\n    end\n\n    create index(:waivers, [:member_id, :signed_at])\n  end\nend"),
        WR("lib/belay/waivers.ex", "defmodule Belay.Waivers do\n  import Ecto.Query\n  alias Belay.Repo\n  alias Belay.Waivers.Waiver\n\n"
           "  @valid_months 12\n\n  def valid?(member, now \\\\ DateTime.utc_now()) do\n    cutoff = DateTime.shift(now, month: -@valid_months)\n"
           "    Repo.exists?(from w in Waiver, where: w.member_id == ^member.id and w.signed_at > ^cutoff)\n  end\n\n"
           "  def needs_guardian?(member, today), do: Belay.Memberships.age(member, today) < 18\nend"),
        ED("priv/repo/migrations/20261104120000_create_checkins.exs", "    create index(:checkins, [:location])",
           "    create index(:checkins, [:location])\n    create index(:checkins, [:member_id, :location, :inserted_at])"),
        SH("mix test", mix_ok(61550, 49, "2.4", "1.1", "1.3")),
        A("Waivers are in: a `waivers` table, `Belay.Waivers.valid?/2` (signed within the last 12 months) and `needs_guardian?/2` (under 18). I also added "
          "an index on `checkins (member_id, location, inserted_at)` for the repeat-scan lookup."),
        U("Wait — you added that index in 20261104120000_create_checkins.exs? That migration ran on prod back in November. Editing it does nothing there, "
          "it only makes fresh databases differ from prod. From now on, don't touch a migration that's already shipped — write a new one."),
        A("Sorry — you're right. Reverting that edit and adding the index as a new migration."),
        ED("priv/repo/migrations/20261104120000_create_checkins.exs", "    create index(:checkins, [:location])\n"
           "    create index(:checkins, [:member_id, :location, :inserted_at])", "    create index(:checkins, [:location])"),
        SH("mix ecto.gen.migration add_checkins_member_location_index", "* creating priv/repo/migrations/20270113145530_add_checkins_member_location_index.exs"),
        WR("priv/repo/migrations/20270113145530_add_checkins_member_location_index.exs", "defmodule Belay.Repo.Migrations.AddCheckinsMemberLocationIndex do\n"
           "  use Ecto.Migration\n\n  def change do\n    create index(:checkins, [:member_id, :location, :inserted_at])\n  end\nend"),
        ED("lib/belay_web/live/kiosk_live.ex", "    case Checkins.check_in(member, socket.assigns.location) do",
           "    if not Belay.Waivers.valid?(member) do\n      {:noreply, push_navigate(socket, to: ~p\"/kiosk/#{socket.assigns.location}/waiver/#{member.id}\")}\n"
           "    else\n    case Checkins.check_in(member, socket.assigns.location) do"),
        SH("mix precommit", CREDO_FAIL, 1),
        ED("lib/belay/waivers.ex", "defmodule Belay.Waivers do\n", "defmodule Belay.Waivers do\n  @moduledoc \"Liability waivers: valid 12 months; under-18s "
           "need a guardian's signature.\"\n"),
        ED("lib/belay_web/live/kiosk_live.ex", "    if not Belay.Waivers.valid?(member) do", "    if not Waivers.valid?(member) do"),
        ED("lib/belay_web/live/kiosk_live.ex", "  alias Belay.{Checkins, Memberships}\n", "  alias Belay.{Checkins, Memberships, Waivers}\n"),
        SH("mix precommit", "Checking 91 source files ...\n\nAnalysis took 0.9 seconds (0.04s to load, 0.8s running 64 checks on 91 files)\n"
           "418 mods/funs, found no issues.\n" + mix_ok(9024, 51, "2.5", "1.1", "1.4")),
        U("Credo is such a pedant. But yes — I'd rather you run mix precommit before telling me you're done, every time. Format check, credo --strict "
          "and the tests, it's all in there."),
        A("Will do — `mix precommit` clean before I call anything done. The waiver screen itself (signature pad + guardian step) is next; shall I "
          "start on it?"),
        U("Tomorrow. À demain!"),
    ])
    b5 = Session("codex", "20:00", steps=[
        U("Emails: we moved transactional email from Mailgun to Postmark this afternoon — Mailgun's shared IPs kept landing our receipts in Videotron's "
          "spam folder. So the Swoosh adapter should be Postmark now. The token is POSTMARK_API_KEY in the Gigalixir config. For your local .env it's "
          "3f9a1c2e-5b7d-4e08-a6c4-9d2e7b1f0a53."),
        A("I won't put that token in any file — dev uses `Swoosh.Adapters.Local`, so it isn't needed locally; prod reads `POSTMARK_API_KEY` from the "
          "Gigalixir config."),
        SH("sed -n '1,12p' config/runtime.exs", RUNTIME_MAILER),
        ED("config/runtime.exs", "    adapter: Swoosh.Adapters.Mailgun,\n    api_key: System.fetch_env!(\"MAILGUN_API_KEY\"),\n    domain: \"mg.vertige.ca\",\n"
           "    base_url: \"https://api.mailgun.net/v3\"", "    adapter: Swoosh.Adapters.Postmark,\n    api_key: System.fetch_env!(\"POSTMARK_API_KEY\")"),
        SH("grep -rn -i mailgun config lib test", "config/prod.exs:9:# Mailgun needs hackney as Swoosh's API client\n"
           "test/belay/mailer_test.exs:7:    assert Belay.Mailer.__adapter__() in [Swoosh.Adapters.Test, Swoosh.Adapters.Mailgun]"),
        ED("config/prod.exs", "# Mailgun needs hackney as Swoosh's API client", "# Swoosh's API adapters (Postmark) use hackney"),
        ED("test/belay/mailer_test.exs", "[Swoosh.Adapters.Test, Swoosh.Adapters.Mailgun]", "[Swoosh.Adapters.Test, Swoosh.Adapters.Postmark]"),
        U("mg.vertige.ca is switched off too, I removed the DNS records. Oh, and bump the version to 0.21.0 in mix.exs, I'm deploying tonight."),
        ED("mix.exs", "      version: \"0.20.3\",", "      version: \"0.21.0\","),
        SH("mix precommit", "Checking 91 source files ...\n\nAnalysis took 0.9 seconds (0.04s to load, 0.8s running 64 checks on 91 files)\n"
           "418 mods/funs, found no issues.\n" + mix_ok(33407, 51, "2.4", "1.0", "1.4")),
        A("Postmark adapter configured, the Mailgun leftovers are gone, version is 0.21.0, and `mix precommit` is clean."),
        U("Commit: the mailer change first, then the version bump separately."),
        SH("git add config test && git commit -q -m 'mailer: switch to postmark' && git add mix.exs && git commit -q -m 'release: bump version to 0.21.0' && "
           "git log --oneline -2", "0c7ad35 release: bump version to 0.21.0\n9e41b08 mailer: switch to postmark"),
        A("Committed `9e41b08 mailer: switch to postmark` and `0c7ad35 release: bump version to 0.21.0`."),
        U("If we ever open a third gym — Laval keeps coming up, maybe 2028 — the kiosk routes would need a rethink. Just thinking out loud."),
        A("The location slug in `/kiosk/:location` already comes from the locations table, so a third gym would mostly be a new row — but noted."),
    ])
    b6 = Session("claude", "14:45", title="SMS expiry reminders with Req", steps=[
        U("New feature: text members seven days before their membership expires, through Twilio. And a heads-up first: we're moving off HTTPoison. New "
          "code uses Req from now on, and HTTPoison goes away bit by bit as we touch things. Don't go rewriting the GripDesk client just for that, it's "
          "dying anyway."),
        MEM("http client library", [("transcripts/{s3}.md#L30", "Fine. HTTPoison like the rest of the code — no Tesla, no Finch directly.")]),
        SH("grep -n ':req' mix.exs mix.lock", "", 1),
        A("Req isn't a dependency yet. You asked me to check before adding one: OK to add `{:req, \"~> 0.5\"}`?"),
        U("Yes, that's the one."),
        ED("mix.exs", "      {:tz, \"~> 0.28\"},", "      {:tz, \"~> 0.28\"},\n      {:req, \"~> 0.5\"},"),
        SH("mix deps.get", "Resolving Hex dependencies...\nResolution completed in 0.112s\nNew:\n  finch 0.19.0\n  mint 1.6.2\n  nimble_options 1.1.1\n"
           "  nimble_pool 1.1.0\n  req 0.5.8\n* Getting req (Hex package)\n* Getting finch (Hex package)"),
        WR("lib/belay/sms/twilio.ex", TWILIO_MODULE),
        WR("lib/belay/reminders/expiry_worker.ex", EXPIRY_WORKER_V1),
        ED("config/config.exs", "       {\"0 23 * * *\", Belay.Reports.DailyCheckinWorker},", "       {\"0 23 * * *\", Belay.Reports.DailyCheckinWorker},\n"
           "       {\"0 10 * * *\", Belay.Reminders.ExpiryWorker},"),
        WR("test/belay/reminders/expiry_worker_test.exs", "defmodule Belay.Reminders.ExpiryWorkerTest do\n  use Belay.DataCase, async: true\n"
           "  use Oban.Testing, repo: Belay.Repo\n\n  test \"texts members whose membership ends in seven days\" do\n"
           "    Req.Test.stub(Belay.SMS.Twilio, fn conn -> Req.Test.json(Plug.Conn.put_status(conn, 201), %{sid: \"SM1\"}) end)\n"
           "    membership_fixture(ends_on: Date.add(Date.utc_today(), 7))\n    assert :ok = perform_job(Belay.Reminders.ExpiryWorker, %{})\n  end\nend"),
        SH("mix test test/belay/reminders", "Running ExUnit with seed: 502991, max_cases: 20\n\n\n  1) test texts members whose membership ends in seven "
           "days (Belay.Reminders.ExpiryWorkerTest)\n     test/belay/reminders/expiry_worker_test.exs:6\n     ** (MatchError) no match of right hand "
           "side value: {:error, %Req.TransportError{reason: :nxdomain}}\n     ** (Req.TransportError) non-existing domain\n\nFinished in 0.2 seconds "
           "(0.2s async, 0.0s sync)\n1 test, 1 failure", 2),
        A("The test went to the real network: the stub is registered, but nothing tells `Req` to use it. In the test config the Twilio module should get "
          "`plug: {Req.Test, Belay.SMS.Twilio}` — that's what `:twilio_req_options` is for."),
        ED("config/test.exs", "config :belay, Belay.Mailer, adapter: Swoosh.Adapters.Test",
           "config :belay, Belay.Mailer, adapter: Swoosh.Adapters.Test\n\nconfig :belay, :twilio_req_options, plug: {Req.Test, Belay.SMS.Twilio}"),
        SH("mix test test/belay/reminders", mix_ok(502991, 1, "0.2", "0.2", "0.0")),
        COMPACT(BELAY_COMPACT),
        U("Add a test for someone whose membership ends late in the evening — front desk says that's where the old system always got it wrong."),
        ED("test/belay/reminders/expiry_worker_test.exs", "  test \"texts members whose membership ends in seven days\" do",
           "  test \"texts members whose membership ends seven Montréal days from now\" do\n"
           "    # 21:00 in Montréal on the 14th is already the 15th in UTC\n    now = ~U[2027-01-15 02:00:00Z]\n"
           "    membership_fixture(ends_at: ~U[2027-01-22 02:30:00Z])\n    sent = Belay.Reminders.ExpiryWorker.run(now)\n"
           "    assert length(sent) == 1\n  end\n\n  test \"texts members whose membership ends in seven days\" do"),
        SH("mix test", EXPIRY_TEST_FAIL, 2),
        A("That one fails, and it's the same trap as the dashboard on Tuesday: the worker computes \"seven days from today\" with `Date.utc_today()`. "
          "At 21:00 in Montréal it's already tomorrow in UTC, so it looks one day too far ahead and misses this member."),
        U("Montréal time, again. Anything with a 'day' in it is a Montréal day here."),
        ED("lib/belay/reminders/expiry_worker.ex", "    target = Date.add(Date.utc_today(), 7)",
           "    today = now |> DateTime.shift_zone!(\"America/Toronto\") |> DateTime.to_date()\n    target = Date.add(today, 7)"),
        SH("mix precommit", "Checking 95 source files ...\n\nAnalysis took 1.0 seconds (0.04s to load, 0.9s running 64 checks on 95 files)\n"
           "431 mods/funs, found no issues.\n" + mix_ok(71120, 55, "2.6", "1.2", "1.4")),
        A("Fixed: the reminder worker takes today's date in `America/Toronto`. `mix precommit` is clean, 55 tests."),
        U("Merci! Honestly this is going well."),
    ])
    b7 = Session("codex", "14:30", steps=[
        U("Big day: GripDesk is switched off as of last night — we did the cutover two weeks early. belay is now the only source of member data, sign-ups "
          "included. Please remove the nightly GripDesk import: the worker, its client, the cron entry, the config."),
        SH("grep -rln -i gripdesk lib config test", "lib/belay/imports/gripdesk_client.ex\nlib/belay/imports/gripdesk_worker.ex\nconfig/config.exs\n"
           "config/runtime.exs\ntest/belay/imports/gripdesk_worker_test.exs\ntest/support/fixtures/gripdesk_export.json"),
        SH("git rm -q lib/belay/imports/gripdesk_client.ex lib/belay/imports/gripdesk_worker.ex test/belay/imports/gripdesk_worker_test.exs "
           "test/support/fixtures/gripdesk_export.json", ""),
        ED("config/config.exs", "       # GripDesk members export, 02:00 Montréal\n       {\"0 7 * * *\", Belay.Imports.GripDeskWorker}\n", ""),
        ED("config/config.exs", "  queues: [default: 10, mailers: 5, imports: 1],", "  queues: [default: 10, mailers: 5],"),
        ED("config/runtime.exs", "\n  config :belay, :gripdesk_api_key, System.fetch_env!(\"GRIPDESK_API_KEY\")", ""),
        SH("grep -rn 'HTTPoison' lib test | wc -l", "0"),
        A("GripDesk code, cron entry, `imports` queue and API key config are gone. That was also the last HTTPoison caller — nothing in `lib` or `test` "
          "uses it any more. Remove `:httpoison` from the deps?"),
        U("Yes, rip it out."),
        ED("mix.exs", "      {:httpoison, \"~> 2.2\"},\n", ""),
        SH("mix deps.unlock --unused && mix precommit", "Unlocked deps:\n* httpoison\n* certifi\n* idna\n* metrics\n* mimerl\n* parse_trans\n* ssl_verify_fun\n"
           "* unicode_util_compat\nChecking 92 source files ...\n\nAnalysis took 0.9 seconds (0.04s to load, 0.8s running 64 checks on 92 files)\n"
           "424 mods/funs, found no issues.\n" + mix_ok(14503, 52, "2.4", "1.1", "1.3")),
        TH("hackney is still a direct dependency (Swoosh's Postmark adapter uses it), so unlocking only dropped httpoison's own tree. Good."),
        SH("git add -A && git commit -q -m 'imports: remove gripdesk nightly import' && git log --oneline -1", "5a2f9d0 imports: remove gripdesk nightly import"),
        A("Done and committed as `5a2f9d0 imports: remove gripdesk nightly import`; `mix precommit` was clean first. `hackney` stays — the Postmark "
          "adapter needs it."),
        U("Quick one: on the pricing page rename 'Forfait 10 entrées' to 'Carte 10 entrées', the front desk keeps getting questions."),
        SH("grep -n -B1 'Forfait 10 entrées' priv/gettext/fr_CA/LC_MESSAGES/default.po", "412-msgid \"10-visit pass\"\n413:msgstr \"Forfait 10 entrées\""),
        ED("priv/gettext/fr_CA/LC_MESSAGES/default.po", "msgstr \"Forfait 10 entrées\"", "msgstr \"Carte 10 entrées\""),
        SH("git commit -qam 'pricing: rename the 10-visit pass in french' && git log --oneline -1", "d18c4e6 pricing: rename the 10-visit pass in french"),
        A("Renamed in the French translation (`fr_CA`), committed as `d18c4e6`."),
    ])
    b8 = Session("claude", "19:10", title="Daily report: Montréal day, and send at 23:30", steps=[
        U("The Verdun manager says last night's report stopped counting at 7 pm, and the count started at 7 pm the evening before. The time zone thing "
          "again?"),
        MEM("timezone day boundaries for check-ins", [("transcripts/{s3}.md#L9", "We store everything in UTC — utc_datetime everywhere — and everything "
                                                       "the gym sees is in Montréal time."),
                                                      ("transcripts/{s6}.md#L40", "the reminder worker takes today's date in `America/Toronto`")]),
        RD("lib/belay/reports/daily_checkin_worker.ex", REPORT_WORKER_SHOWN),
        A("Yes — third time, different symptom: the report worker asks `Checkins.counts_for_day/2` for `Date.utc_today()`, and that compares "
          "`date(inserted_at)` in UTC. So \"the day\" runs from 19:00 to 19:00 Montréal time. I'll compute the Montréal date, turn its start and end into "
          "UTC instants and count between them."),
        ED("lib/belay/reports/daily_checkin_worker.ex", "    today = Date.utc_today()\n",
           "    today = DateTime.now!(\"America/Toronto\") |> DateTime.to_date()\n"),
        ED("lib/belay/checkins.ex", "  def counts_for_day(location, date) do\n    from(c in Checkin, where: c.location == ^location.slug and fragment(\"date(?)\", "
           "c.inserted_at) == ^date)",
           "  def counts_for_day(location, date) do\n    {from, to} = montreal_day_bounds(date)\n\n"
           "    from(c in Checkin, where: c.location == ^location.slug and c.inserted_at >= ^from and c.inserted_at < ^to)"),
        WR("test/belay/reports/daily_checkin_worker_test.exs", "defmodule Belay.Reports.DailyCheckinWorkerTest do\n  use Belay.DataCase, async: true\n"
           "  import Swoosh.TestAssertions\n\n  test \"a 21:00 check-in is in that evening's report\" do\n    verdun = location_fixture(slug: \"verdun\")\n"
           "    checkin_fixture(member_fixture(), \"verdun\", ~U[2027-01-15 02:00:00Z])\n    Belay.Reports.DailyCheckinWorker.run(verdun, ~D[2027-01-14])\n"
           "    assert_email_sent(fn email -> email.text_body =~ \"1\" end)\n  end\nend"),
        SH("mix test test/belay/reports", mix_ok(62218, 3, "0.5", "0.2", "0.3")),
        U("Good. One more change while we're here: Verdun now stays open until 23:00 on weekdays, so a report at 23:00 misses the last hour. Move it to "
          "23:30."),
        ED("config/config.exs", "       {\"0 23 * * *\", Belay.Reports.DailyCheckinWorker},", "       {\"30 23 * * *\", Belay.Reports.DailyCheckinWorker},"),
        SH("mix precommit", "Checking 93 source files ...\n\nAnalysis took 0.9 seconds (0.04s to load, 0.8s running 64 checks on 93 files)\n"
           "427 mods/funs, found no issues.\n" + mix_ok(40026, 55, "2.5", "1.1", "1.4")),
        SH("git add -A && git commit -q -m 'reports: count the montréal day and send at 23:30' && git log --oneline -1",
           "ee07b31 reports: count the montréal day and send at 23:30"),
        A("- the report counts the Montréal calendar day (midnight to midnight, `America/Toronto`)\n- it now goes out at 23:30 Montréal time\n"
          "- `mix precommit` clean; committed `ee07b31`"),
        U("merci, bonne fin de semaine!"),
        A("Thanks, you too — have a good weekend!"),
    ])
    b9 = Session("codex", "14:15", steps=[
        U("Membership freezes. A member can pause their membership for one to three months — injury, travel — at most once a year, and the expiry date "
          "moves out by the frozen time. Staff do it from the admin LiveView for the member."),
        MEM("dev database rules", [("transcripts/{s3}.md#L14", "Please keep your hands off ecto.reset and ecto.drop on belay_dev. It holds a real copy of "
                                    "our members")]),
        SH("mix ecto.gen.migration create_membership_freezes", "* creating priv/repo/migrations/20270118142210_create_membership_freezes.exs"),
        WR("priv/repo/migrations/20270118142210_create_membership_freezes.exs", "defmodule Belay.Repo.Migrations.CreateMembershipFreezes do\n"
           "  use Ecto.Migration\n\n  def change do\n    create table(:membership_freezes) do\n      add :membership_id, references(:memberships, on_delete: "
           ":delete_all), null: false\n      add :starts_on, :date, null: false\n      add :months, :integer, null: false\n      add :reason, :string\n\n"
           "      timestamps(type: :utc_datetime)\n    end\n\n    create constraint(:membership_freezes, :months_between_1_and_3, check: \"months BETWEEN 1 AND 3\")\n"
           "  end\nend"),
        WR("lib/belay/memberships/freeze.ex", "defmodule Belay.Memberships.Freeze do\n  @moduledoc \"Pausing a membership for 1–3 months, once per year.\"\n"
           "  use Ecto.Schema\n  import Ecto.Changeset\n\n  schema \"membership_freezes\" do\n    belongs_to :membership, Belay.Memberships.Membership\n"
           "    field :starts_on, :date\n    field :months, :integer\n    field :reason, :string\n    timestamps(type: :utc_datetime)\n  end\n\n"
           "  def changeset(freeze, attrs) do\n    freeze\n    |> cast(attrs, [:starts_on, :months, :reason])\n    |> validate_required([:starts_on, :months])\n"
           "    |> validate_number(:months, greater_than_or_equal_to: 1, less_than_or_equal_to: 3)\n  end\nend"),
        ED("lib/belay/memberships.ex", "  def renew(%Membership{} = membership, plan) do",
           "  def freeze(%Membership{} = membership, attrs) do\n    with :ok <- no_freeze_in_last_year(membership),\n"
           "         {:ok, freeze} <- %Freeze{membership_id: membership.id} |> Freeze.changeset(attrs) |> Repo.insert() do\n"
           "      membership\n      |> Membership.changeset(%{ends_on: Date.add(membership.ends_on, freeze.months * 30)})\n      |> Repo.update()\n    end\n"
           "  end\n\n  def renew(%Membership{} = membership, plan) do"),
        ED("lib/belay_web/live/admin/member_live/show.ex", "  def handle_event(\"renew\", %{\"plan\" => plan}, socket) do",
           "  def handle_event(\"freeze\", %{\"freeze\" => params}, socket) do\n    case Memberships.freeze(socket.assigns.membership, params) do\n"
           "      {:ok, membership} -> {:noreply, socket |> assign(membership: membership) |> put_flash(:info, gettext(\"Membership frozen\"))}\n"
           "      {:error, reason} -> {:noreply, put_flash(socket, :error, freeze_error(reason))}\n    end\n  end\n\n"
           "  def handle_event(\"renew\", %{\"plan\" => plan}, socket) do"),
        SH("mix ecto.migrate", "[info] == Running 20270118142210 Belay.Repo.Migrations.CreateMembershipFreezes.change/0 forward\n[info] create table "
           "membership_freezes\n[info] create check constraint months_between_1_and_3 on table membership_freezes\n[info] == Migrated 20270118142210 in 0.0s"),
        SH("mix precommit", "Checking 95 source files ...\n\nAnalysis took 1.0 seconds (0.04s to load, 0.9s running 64 checks on 95 files)\n"
           "433 mods/funs, found no issues.\nRunning ExUnit with seed: 30917, max_cases: 20\n\n.......\n\n  1) test a three-month freeze moves the end "
           "date by three months (Belay.MembershipsFreezeTest)\n     test/belay/memberships_freeze_test.exs:18\n     Assertion with == failed\n"
           "     code:  assert membership.ends_on == ~D[2027-04-30]\n     left:  ~D[2027-04-28]\n     right: ~D[2027-04-30]\n\n"
           "Finished in 2.6 seconds (1.2s async, 1.4s sync)\n58 tests, 1 failure\n** (Mix) mix precommit failed: test exited with 2", 1),
        A("Three \"months\" of 30 days aren't three calendar months. `Date.shift/2` (Elixir 1.17) does calendar months properly."),
        ED("lib/belay/memberships.ex", "Date.add(membership.ends_on, freeze.months * 30)", "Date.shift(membership.ends_on, month: freeze.months)"),
        ED("priv/gettext/fr_CA/LC_MESSAGES/default.po", "msgid \"Membership frozen\"\nmsgstr \"\"", "msgid \"Membership frozen\"\nmsgstr \"Abonnement suspendu\""),
        SH("mix precommit", "Checking 95 source files ...\n\nAnalysis took 1.0 seconds (0.04s to load, 0.9s running 64 checks on 95 files)\n"
           "433 mods/funs, found no issues.\n" + mix_ok(30917, 58, "2.6", "1.2", "1.4")),
        A("Freezes work: 1–3 calendar months, once per rolling year, end date shifted; staff get a French/English flash message. `mix precommit` is clean "
          "(58 tests). The migration ran on `belay_dev` normally — nothing reset."),
        U("Commit it, usual format."),
        SH("git add -A && git commit -q -m 'memberships: add membership freezes' && git log --oneline -1", "7f3b2c9 memberships: add membership freezes"),
        A("Committed `7f3b2c9 memberships: add membership freezes`."),
        U("Good week. À la semaine prochaine!"),
        A("See you next week!"),
    ])
    return Project("belay", BELAY_CWD, "git@github.com:vertige-escalade/belay.git", agents, [
        Day("2027-01-11", [b1, b2], ["what stack is belay built on", "how should liveviews read data", "what language should replies be in"]),
        Day("2027-01-12", [b3], ["check-ins counted on the wrong day", "can I reset the dev database", "http client for external apis"]),
        Day("2027-01-13", [b4, b5], ["how long is a waiver valid", "changing an old migration", "which email provider sends receipts"]),
        Day("2027-01-14", [b6], ["http library for new code", "reminder sent on the wrong day", "adding a hex package"]),
        Day("2027-01-15", [b7, b8], ["where do new members sign up", "what time is the daily report sent", "commit message format"]),
        Day("2027-01-18", [b9], ["before saying a change is done", "dev database rules", "where do user-facing strings go"]),
    ])


PROJECTS = (quayside, belay)


def main() -> None:
    base.write_set(PROJECTS, HERE, __doc__ or "")


if __name__ == "__main__":
    main()
