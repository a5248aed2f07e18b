"""Write the held-out coding-sessions set: two projects of multi-day coding-agent sessions.

Same machinery as ``../coding-sessions/make.py`` (imported from that file by path: the step
helpers, the Claude Code and Codex renderers, ``build``, ``write_set``), but different projects, owners,
stacks and wording, so a memory tool tuned on the first set can be checked on text it has
never seen. The gold labels (``gold.json``) were written by hand from these transcripts alone,
before any memory tool was run on them.

Projects:
- ``millrace``: a Dagster + dbt + BigQuery data pipeline for a Lisbon bike-share (owner Marisol);
- ``larder``: a Flutter mobile app with a Supabase backend and RevenueCat subscriptions (owner Kofi).

Run: ``python benchmarks/data/coding-sessions-heldout/make.py`` (``--check`` only verifies the
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
# Project 1: millrace, Dagster + dbt + BigQuery pipeline for Pedala, a Lisbon bike-share (owner Marisol)
# ================================================================================================
MILL_CWD = "/home/marisol/code/millrace"

MILL_LS = """Makefile
README.md
dbt_project.yml
docs
macros
millrace_orchestration
models
packages.yml
profiles
pyproject.toml
seeds
tests
uv.lock"""

MILL_MAKEFILE = """.PHONY: dev test build

dev:
\tdagster dev -m millrace_orchestration

test:
\tuv run pytest -q

build:
\tdbt build --target dev"""

DAGSTER_PORT_CLASH = """2026-11-02 09:23:41 +0000 - dagster - INFO - Launching Dagster services...
2026-11-02 09:23:44 +0000 - dagster.daemon - INFO - Instance is configured with the following daemons: ['AssetDaemon', 'BackfillDaemon', 'SchedulerDaemon', 'SensorDaemon']
2026-11-02 09:23:45 +0000 - dagster-webserver - INFO - Loading workspace...
2026-11-02 09:23:47 +0000 - dagster-webserver - INFO - Serving dagster-webserver on http://127.0.0.1:3000 in process 51822
ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 3000): address already in use
2026-11-02 09:23:47 +0000 - dagster - INFO - Shutting down Dagster services...
2026-11-02 09:23:48 +0000 - dagster - ERROR - dagster-webserver process shut down unexpectedly with return code 1. Shutting down remaining processes.
make: *** [Makefile:4: dev] Error 1"""

DAGSTER_UP = """2026-11-{day} {hm}:12 +0000 - dagster - INFO - Launching Dagster services...
2026-11-{day} {hm}:15 +0000 - dagster.daemon - INFO - Instance is configured with the following daemons: ['AssetDaemon', 'BackfillDaemon', 'SchedulerDaemon', 'SensorDaemon']
2026-11-{day} {hm}:16 +0000 - dagster-webserver - INFO - Loading workspace...
2026-11-{day} {hm}:19 +0000 - dagster-webserver - INFO - Serving dagster-webserver on http://127.0.0.1:3070 in process {pid}"""

VELONET_SFTP_PY = '''"""Raw Velonet trip exports -> BigQuery raw_velonet.trips."""
import io
import os

import pandas as pd
import paramiko
from dagster import AssetExecutionContext, asset
from google.cloud import bigquery

SFTP_HOST = "sftp.velonet.pt"
EXPORT_DIR = "/exports/pedala"


def _fetch_latest() -> tuple[str, bytes]:
    transport = paramiko.Transport((SFTP_HOST, 22))
    key = paramiko.Ed25519Key.from_private_key(io.StringIO(os.environ["VELONET_SFTP_KEY"]))
    transport.connect(username=os.environ["VELONET_SFTP_USER"], pkey=key)
    sftp = paramiko.SFTPClient.from_transport(transport)
    name = sorted(sftp.listdir(EXPORT_DIR))[-1]
    with sftp.open(f"{EXPORT_DIR}/{name}") as fh:
        return name, fh.read()


@asset(group_name="velonet", compute_kind="python")
def raw_velonet_trips(context: AssetExecutionContext) -> None:
    name, body = _fetch_latest()
    df = pd.read_csv(io.BytesIO(body), dtype=str)
    df["_file_name"] = name
    client = bigquery.Client(project="pedala-analytics")
    client.load_table_from_dataframe(df, "pedala-analytics.raw_velonet.trips").result()
    context.log.info(f"loaded {len(df)} rows from {name}")'''

PARSER_ERROR = """2026-11-02 09:41:12 +0000 - dagster - DEBUG - __ASSET_JOB - 7f3c2a91-5d0e-4c61-9f8e-1b2a7d44e0c3 - 52410 - RUN_START - Started execution of run for "__ASSET_JOB".
2026-11-02 09:41:13 +0000 - dagster - DEBUG - __ASSET_JOB - 7f3c2a91-5d0e-4c61-9f8e-1b2a7d44e0c3 - 52410 - raw_velonet_trips - STEP_START - Started execution of step "raw_velonet_trips".
2026-11-02 09:41:19 +0000 - dagster - ERROR - __ASSET_JOB - 7f3c2a91-5d0e-4c61-9f8e-1b2a7d44e0c3 - 52410 - raw_velonet_trips - STEP_FAILURE - Execution of step "raw_velonet_trips" failed.

dagster._core.errors.DagsterExecutionStepExecutionError: Error occurred while executing op "raw_velonet_trips"::

pandas.errors.ParserError: Error tokenizing data. C error: Expected 1 fields in line 3, saw 2

Stack Trace:
  File "/home/marisol/code/millrace/.venv/lib/python3.12/site-packages/dagster/_core/execution/plan/utils.py", line 54, in op_execution_error_boundary
    yield
  File "/home/marisol/code/millrace/millrace_orchestration/assets/velonet.py", line 28, in raw_velonet_trips
    df = pd.read_csv(io.BytesIO(body), dtype=str)
  File "/home/marisol/code/millrace/.venv/lib/python3.12/site-packages/pandas/io/parsers/readers.py", line 1026, in read_csv
    return _read(filepath_or_buffer, kwds)

2026-11-02 09:41:19 +0000 - dagster - ERROR - __ASSET_JOB - 7f3c2a91-5d0e-4c61-9f8e-1b2a7d44e0c3 - 52410 - RUN_FAILURE - Execution of run for "__ASSET_JOB" failed. Steps failed: ['raw_velonet_trips']."""

SAMPLE_HEAD = """ride_id;started_at;ended_at;start_station_id;end_station_id;distance_km;bike_type
R-88213;27/10/2026 23:58;28/10/2026 00:14;104;131;2,7;E
R-88214;28/10/2026 00:02;28/10/2026 00:09;212;212;0,4;C"""

MATERIALIZE_OK = """2026-11-{day} {hm}:02 +0000 - dagster - DEBUG - __ASSET_JOB - {run} - {pid} - RUN_START - Started execution of run for "__ASSET_JOB".
2026-11-{day} {hm}:03 +0000 - dagster - DEBUG - __ASSET_JOB - {run} - {pid} - {asset} - STEP_START - Started execution of step "{asset}".
2026-11-{day} {hm}:14 +0000 - dagster - INFO - __ASSET_JOB - {run} - {pid} - {asset} - {msg}
2026-11-{day} {hm}:15 +0000 - dagster - DEBUG - __ASSET_JOB - {run} - {pid} - {asset} - ASSET_MATERIALIZATION - Materialized value {asset}.
2026-11-{day} {hm}:15 +0000 - dagster - DEBUG - __ASSET_JOB - {run} - {pid} - {asset} - STEP_SUCCESS - Finished execution of step "{asset}" in 11.9s.
2026-11-{day} {hm}:16 +0000 - dagster - DEBUG - __ASSET_JOB - {run} - {pid} - RUN_SUCCESS - Finished execution of run for "__ASSET_JOB"."""


def dbt_out(clock: str, lines: list[str], summary: str, tail: str = "") -> str:
    """Console output of a ``dbt build`` (dbt 1.8, BigQuery adapter)."""
    head = [f"{clock}  Running with dbt=1.8.7", f"{clock}  Registered adapter: bigquery=1.8.3",
            f"{clock}  Found 7 models, 2 macros, 19 data tests, 3 sources, 1 seed, 491 macros", f"{clock}",
            f"{clock}  Concurrency: 4 threads (target='dev')", f"{clock}"]
    body = [f"{clock}  {line}" for line in lines]
    end = [f"{clock}", f"{clock}  {summary}"]
    return "\n".join(head + body + end) + (("\n" + tail) if tail else "")


STG_TRIPS_V1 = """with source as (
    select * from {{ source('velonet', 'trips') }}
)

select
    ride_id,
    cast(started_at as timestamp) as started_at,
    cast(ended_at as timestamp) as ended_at,
    cast(start_station_id as int64) as start_station_id,
    cast(end_station_id as int64) as end_station_id,
    cast(distance_km as float64) as distance_km,
    bike_type
from source"""

PARSE_MACRO = """{#- Velonet writes day-first Lisbon wall-clock times with no offset: 27/10/2026 23:58 -#}
{% macro parse_velonet_ts(column) -%}
    timestamp(parse_datetime('%d/%m/%Y %H:%M', {{ column }}), 'Europe/Lisbon')
{%- endmacro %}"""

STG_TRIPS_V2 = """with source as (
    select * from {{ source('velonet', 'trips') }}
),

renamed as (
    select
        ride_id,
        {{ parse_velonet_ts('started_at') }} as started_at,
        {{ parse_velonet_ts('ended_at') }} as ended_at,
        cast(start_station_id as int64) as start_station_id,
        cast(end_station_id as int64) as end_station_id,
        cast(distance_km as float64) as distance_km,
        bike_type,
        _file_name
    from source
)

select * from renamed"""

VELONET_MODELS_YML = """version: 2

models:
  - name: stg_velonet__trips
    description: One row per Velonet ride; timestamps converted from Lisbon wall-clock time to UTC.
    columns:
      - name: ride_id
        description: Velonet's ride identifier (R-nnnnn).
        tests: [unique, not_null]"""

FCT_RIDES_DAILY = """with trips as (
    select * from {{ ref('stg_velonet__trips') }}
),

daily as (
    select
        date(started_at, 'Europe/Lisbon') as ride_date,
        count(*) as rides,
        countif(bike_type = 'E') as e_bike_rides,
        round(sum(distance_km), 1) as distance_km,
        count(distinct start_station_id) as active_stations
    from trips
    group by ride_date
)

select * from daily"""

DUP_QUERY_OUT = """+---------+-----------------------------+-------+
| ride_id |         _file_name          | n     |
+---------+-----------------------------+-------+
| R-87102 | trips_2026-10-30.csv        |     1 |
| R-87102 | trips_2026-10-31.csv        |     1 |
| R-87655 | trips_2026-10-31.csv        |     1 |
| R-87655 | trips_2026-11-01.csv        |     1 |
| R-88190 | trips_2026-11-01.csv        |     1 |
| R-88190 | trips_2026-11-02.csv        |     1 |
+---------+-----------------------------+-------+"""

STATIONS_HEAD = """station_id,name,parish,docks,lat,lon,opened_on
101,Cais do Sodré,Misericórdia,24,38.70581,-9.14432,2017-09-12
104,Praça do Comércio,Santa Maria Maior,30,38.70794,-9.13664,2017-09-12
131,Saldanha,Avenidas Novas,20,38.73432,-9.14498,2018-02-01
212,Alameda,Arroios,28,38.73710,-9.13387,2018-06-20"""

DISTANCE_PY = '''"""Straight-line trip distance, used to sanity-check Velonet's distance_km."""
import numpy as np
import pandas as pd

EARTH_RADIUS_KM = 6371.0


def haversine_km(df: pd.DataFrame) -> pd.Series:
    lat1, lon1, lat2, lon2 = (np.radians(df[c]) for c in ("start_lat", "start_lon", "end_lat", "end_lon"))
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return pd.Series(2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(a)), index=df.index, name="crow_km")'''

DEFINITIONS_PY = """from dagster import Definitions, define_asset_job, load_assets_from_modules

from millrace_orchestration.assets import dbt_assets, distance, velonet
from millrace_orchestration.resources import dbt_resource

all_assets = load_assets_from_modules([velonet, distance, dbt_assets])
daily_job = define_asset_job("millrace_daily", selection="*")

defs = Definitions(
    assets=all_assets,
    jobs=[daily_job],
    resources={"dbt": dbt_resource},
)"""

RUNBOOK_OLD = """# millrace runbook

_Last reviewed: March 2024._

## Orchestration
The daily load is an Airflow DAG on Cloud Composer (`dags/millrace_daily.py`).
To re-run a day: `airflow dags trigger millrace_daily -c '{"ds": "2024-03-01"}'`.

## Warehouse
Everything lives in the `pedala-analytics` project."""

MILL_COMPACT = """Analysis:
Marisol asked for the daily schedule. I read millrace_orchestration/definitions.py, added a ScheduleDefinition for the millrace_daily job at 04:30 with \
execution_timezone Europe/Lisbon (her reason: Velonet's export is on the SFTP by 04:00), and `dagster definitions validate` passed. Earlier today I built dim_stations \
from seeds/stations.csv; the relationships test on stg_velonet__trips.start_station_id fails for stations 418, 422 and 431, which are missing from the seed. The seed is maintained by \
Tiago (Pedala's ops lead) and must not be edited by me; Marisol will pass the list on. I also wrote millrace_orchestration/assets/distance.py (pandas, haversine) with \
4 pytest tests. docs/RUNBOOK.md is from 2024 and describes an Airflow setup that no longer exists.

Summary:
1. Primary Request and Intent: run the millrace_daily job every day at 04:30 Lisbon time.
2. Key Technical Concepts: Dagster ScheduleDefinition (cron 30 4 * * *, execution_timezone), dbt seeds and relationships tests, BigQuery.
3. Files and Code Sections: millrace_orchestration/definitions.py (schedule added), models/marts/dim_stations.sql, millrace_orchestration/assets/distance.py, \
tests/test_distance.py.
4. Errors and fixes: relationships test fails for station ids 418/422/431 (not in seeds/stations.csv) -> left for Tiago.
5. Pending Tasks: commit today's work.
6. User preferences noted: CTEs rather than nested subqueries; every model documented in yml with unique + not_null on its key; dry-run big BigQuery queries and ask \
above ~10 GB; never print Doppler secrets; pandas only for Python transforms; don't edit seeds/stations.csv."""

SFTP_FETCH = VELONET_SFTP_PY[VELONET_SFTP_PY.index("SFTP_HOST ="):VELONET_SFTP_PY.index("\n\n\n@asset")]

S3_LOADER = '''def _fetch_latest() -> tuple[str, bytes]:
    s3 = boto3.client(
        "s3",
        region_name="eu-west-1",
        aws_access_key_id=os.environ["VELONET_AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=os.environ["VELONET_AWS_SECRET_ACCESS_KEY"],
    )
    listing = s3.list_objects_v2(Bucket=BUCKET)
    name = sorted(obj["Key"] for obj in listing["Contents"] if obj["Key"].endswith(".csv"))[-1]
    return name.rsplit("/", 1)[-1], s3.get_object(Bucket=BUCKET, Key=name)["Body"].read()'''

S3_ACCESS_DENIED = """2026-11-06 10:12:44 +0000 - dagster - ERROR - __ASSET_JOB - 0b9e5d12-7a44-4f0e-8c3d-5e61f2a9b7c8 - 61877 - raw_velonet_trips - STEP_FAILURE - Execution of step "raw_velonet_trips" failed.

dagster._core.errors.DagsterExecutionStepExecutionError: Error occurred while executing op "raw_velonet_trips"::

botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the ListObjectsV2 operation: User: arn:aws:iam::418273550912:user/pedala-reader is not authorized to perform: s3:ListBucket on resource: "arn:aws:s3:::velonet-exports-eu" because no identity-based policy allows the s3:ListBucket action

Stack Trace:
  File "/home/marisol/code/millrace/millrace_orchestration/assets/velonet.py", line 27, in _fetch_latest
    listing = s3.list_objects_v2(Bucket=BUCKET)"""

UTIL_PY = '''"""Weekly station utilisation: rides per dock over the last 7 days."""
import polars as pl
from dagster import AssetExecutionContext, asset
from google.cloud import bigquery

QUERY = """
select ride_date, rides, active_stations
from `pedala-analytics.marts.fct_rides_daily`
where ride_date >= date_sub(current_date('Europe/Lisbon'), interval 7 day)
"""


@asset(group_name="marts", compute_kind="polars", deps=["fct_rides_daily"])
def station_utilisation_weekly(context: AssetExecutionContext) -> pl.DataFrame:
    rows = bigquery.Client(project="pedala-analytics").query(QUERY).to_arrow()
    df = pl.from_arrow(rows)
    return df.select(
        pl.col("rides").sum().alias("rides_7d"),
        (pl.col("rides").sum() / pl.col("active_stations").mean()).round(2).alias("rides_per_station"),
    )'''

UTIL_DRY_RUN = ("bq query --use_legacy_sql=false --dry_run \"select ride_date, rides, active_stations from \\`pedala-analytics.marts.fct_rides_daily\\` "
                "where ride_date >= date_sub(current_date('Europe/Lisbon'), interval 7 day)\"")

NULL_DIST_OUT = """+------------+-------+-------------------+
| ride_date  | rides | null_distance     |
+------------+-------+-------------------+
| 2026-11-04 | 18802 |                 0 |
| 2026-11-05 | 19115 |                 0 |
| 2026-11-06 | 17640 |             17640 |
| 2026-11-07 | 21388 |             21388 |
| 2026-11-08 | 20471 |             20471 |
+------------+-------+-------------------+"""


def millrace() -> Project:
    agents = ("## millrace\n- dbt project at the repo root; Dagster code in millrace_orchestration/.\n- Use the `dev` dbt target locally.\n"
              "- `make test` runs the Python tests.")
    m1 = Session("claude", "09:20", title="Run dagster dev on 3070 and fix Velonet CSV parsing", steps=[
        U("Hi! New repo for you. millrace is the data pipeline for Pedala — we run the bike-share here in Lisbon. Dagster orchestrates, dbt does the "
          "modelling, and it all lands in BigQuery, GCP project pedala-analytics. Python 3.12. First job: `make dev` keeps dying on me, can you see why?"),
        MEM("millrace project notes", []),
        SH("ls && cat Makefile", MILL_LS + "\n" + MILL_MAKEFILE),
        SH("make dev", DAGSTER_PORT_CLASH, 2),
        SH("ss -ltnp 'sport = :3000'", "State  Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n"
           "LISTEN 0      4096               *:3000            *:*     users:((\"grafana\",pid=1290,fd=11))"),
        A("The Dagster webserver tries to bind port 3000, and something already owns it: a `grafana` process (pid 1290). Dagster then shuts the whole "
          "stack down. Either stop Grafana or start Dagster on another port — which would you prefer?"),
        U("Oh, Grafana lives there, that's our local monitoring stack, leave it alone. Dagster always runs on 3070 for us — I should've said. Put it in the "
          "Makefile so nobody trips over it again."),
        ED("Makefile", "\tdagster dev -m millrace_orchestration", "\tdagster dev -m millrace_orchestration -p 3070"),
        SH("make dev", DAGSTER_UP.format(day="02", hm="09:27", pid="52077")),
        A("Running: the UI is on http://127.0.0.1:3070 and the Makefile now passes `-p 3070`."),
        U("Lovely. Now the trips load. Velonet — the dock vendor — drops a CSV of the previous day's rides on their SFTP every night: sftp.velonet.pt, "
          "folder /exports/pedala. The login is in Doppler, project millrace, config prd: VELONET_SFTP_USER and VELONET_SFTP_KEY. And please don't ever "
          "print those values in the terminal, not even to debug."),
        A("Understood — I'll reference them by name only and never echo their values. Let me run the load asset."),
        SH("doppler run -p millrace -c prd -- dagster asset materialize --select raw_velonet_trips -m millrace_orchestration", PARSER_ERROR, 1),
        SH("head -3 data/samples/velonet_trips_sample.csv", SAMPLE_HEAD),
        A("The sample explains it: the export is separated by **semicolons**, and `distance_km` uses a **decimal comma** (`2,7`). `pd.read_csv` with its "
          "defaults sees one column, then trips over the comma in line 3. The dates are day-first too (`27/10/2026 23:58`), but the raw table keeps them "
          "as strings, so that's a job for staging."),
        U("Yep, that's Velonet: semicolons and decimal commas, Portuguese Excel style. We asked them to change it, they won't."),
        ED("millrace_orchestration/assets/velonet.py", "    df = pd.read_csv(io.BytesIO(body), dtype=str)",
           "    # Velonet exports: ';' separated, decimal commas (2,7)\n    df = pd.read_csv(io.BytesIO(body), sep=\";\", decimal=\",\", dtype={\"distance_km\": float}).astype({\"ride_id\": str})"),
        SH("doppler run -p millrace -c prd -- dagster asset materialize --select raw_velonet_trips -m millrace_orchestration",
           MATERIALIZE_OK.format(day="02", hm="09:48", run="a41d7e02-9c3b-4b57-8e1f-60d2c5f3a118", pid="52630", asset="raw_velonet_trips",
                                 msg="loaded 18412 rows from trips_2026-11-01.csv")),
        A("Loaded 18,412 rides from `trips_2026-11-01.csv` into `pedala-analytics.raw_velonet.trips`. The reader now uses `sep=\";\"` and `decimal=\",\"`."),
        U("perfeito, obrigada!"),
    ])
    m2 = Session("codex", "14:10", steps=[
        U("Staging model for the trips next. So you know the naming: staging models are stg_<source>__<entity>, with a double underscore, so this one is "
          "stg_velonet__trips. After that int_ for intermediate models and fct_ / dim_ in the marts. Each layer has its own dataset in BigQuery: staging, "
          "intermediate, marts."),
        TH("Look at the existing sources file and the models folder before writing the staging model."),
        SH("ls -R models && cat models/staging/velonet/_velonet__sources.yml",
           "models:\nmarts  staging\n\nmodels/marts:\n\nmodels/staging:\nvelonet\n\nmodels/staging/velonet:\n_velonet__sources.yml\n"
           "version: 2\n\nsources:\n  - name: velonet\n    database: pedala-analytics\n    schema: raw_velonet\n    tables:\n      - name: trips\n"),
        WR("models/staging/velonet/stg_velonet__trips.sql", STG_TRIPS_V1),
        SH("dbt build --select stg_velonet__trips", dbt_out("14:16:08", [
            "1 of 1 START sql table model dbt_marisol_staging.stg_velonet__trips ......... [RUN]",
            "1 of 1 ERROR creating sql table model dbt_marisol_staging.stg_velonet__trips  [ERROR in 2.14s]", "",
            "Finished running 1 table model in 0 hours 0 minutes and 4.02 seconds (4.02s).", "", "Completed with 1 error and 0 warnings:", "",
            "  Database Error in model stg_velonet__trips (models/staging/velonet/stg_velonet__trips.sql)",
            "  Invalid timestamp: '27/10/2026 23:58'",
            "  compiled code at target/run/millrace/models/staging/velonet/stg_velonet__trips.sql"], "Done. PASS=0 WARN=0 ERROR=1 SKIP=0 TOTAL=1"), 1),
        A("BigQuery can't cast `27/10/2026 23:58`: Velonet writes dates day-first, and `cast(... as timestamp)` wants ISO. There's also no offset in the "
          "value. Which timezone are these in?"),
        U("Lisbon wall-clock time, no offset — convert to UTC in staging. And while you're writing SQL: we do CTEs, not nested subqueries. Import CTEs at "
          "the top, one final select, the usual dbt layout."),
        WR("macros/parse_velonet_ts.sql", PARSE_MACRO),
        WR("models/staging/velonet/stg_velonet__trips.sql", STG_TRIPS_V2),
        WR("models/staging/velonet/_velonet__models.yml", VELONET_MODELS_YML),
        SH("dbt build --select stg_velonet__trips", dbt_out("14:24:51", [
            "1 of 3 START sql table model dbt_marisol_staging.stg_velonet__trips ......... [RUN]",
            "1 of 3 OK created sql table model dbt_marisol_staging.stg_velonet__trips .... [CREATE TABLE (18.4k rows, 1.6 MiB processed) in 3.88s]",
            "2 of 3 START test not_null_stg_velonet__trips_ride_id ....................... [RUN]",
            "3 of 3 START test unique_stg_velonet__trips_ride_id ......................... [RUN]",
            "2 of 3 PASS not_null_stg_velonet__trips_ride_id ............................. [PASS in 1.41s]",
            "3 of 3 PASS unique_stg_velonet__trips_ride_id ............................... [PASS in 1.52s]", "",
            "Finished running 1 table model, 2 data tests in 0 hours 0 minutes and 7.90 seconds (7.90s)."], "Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3")),
        A("Done:\n- `macros/parse_velonet_ts.sql`: `parse_datetime('%d/%m/%Y %H:%M', …)` then `timestamp(…, 'Europe/Lisbon')`, so the stored value is UTC\n"
          "- `stg_velonet__trips` rewritten as CTEs (`source` → `renamed` → final select)\n- `_velonet__models.yml` with a description and "
          "`unique` + `not_null` on `ride_id`"),
        U("Good, you guessed that one. One more thing: any new model gets its yml entry with a description, and unique plus not_null on its key. "
          "No exceptions, even for little ones."),
        A("Will do — every new model gets a documented yml entry with `unique` and `not_null` on its key."),
    ])
    m3 = Session("claude", "10:02", title="fct_rides_daily and de-duplicating Velonet overlaps", steps=[
        U("Bom dia. Finance wants rides per day. Ruth — she's our finance controller — pulls it into Looker every Monday morning, so call it "
          "fct_rides_daily, and once it's live don't rename columns without warning her first."),
        MEM("velonet timestamps timezone staging", [("transcripts/{s2}.md#L14", "Lisbon wall-clock time, no offset — convert to UTC in staging."),
                                                    ("transcripts/{s2}.md#L22", "macros/parse_velonet_ts.sql: parse_datetime('%d/%m/%Y %H:%M', …) then "
                                                     "timestamp(…, 'Europe/Lisbon'), so the stored value is UTC")]),
        WR("models/marts/fct_rides_daily.sql", FCT_RIDES_DAILY),
        WR("models/marts/_marts__models.yml", "version: 2\n\nmodels:\n  - name: fct_rides_daily\n    description: Rides per Lisbon calendar day. "
           "Read by finance in Looker; do not rename columns without telling Ruth.\n    columns:\n      - name: ride_date\n        tests: [unique, not_null]"),
        U("Before you run anything heavy on BigQuery: dry-run it first. We're on on-demand pricing and September's bill was ugly. If a query would scan "
          "more than about 10 GB, stop and ask me."),
        SH("dbt compile -q --select fct_rides_daily && bq query --use_legacy_sql=false --dry_run < target/compiled/millrace/models/marts/fct_rides_daily.sql",
           "Query successfully validated. Assuming the tables are not modified, running this query will process upper bound of 1843201754 bytes of data."),
        A("Dry run says about 1.8 GB — well under your 10 GB line. Building it."),
        SH("dbt build --select +fct_rides_daily", dbt_out("10:11:37", [
            "1 of 5 START sql table model dbt_marisol_staging.stg_velonet__trips ......... [RUN]",
            "1 of 5 OK created sql table model dbt_marisol_staging.stg_velonet__trips .... [CREATE TABLE (37.1k rows, 3.2 MiB processed) in 3.61s]",
            "2 of 5 START test not_null_stg_velonet__trips_ride_id ....................... [RUN]",
            "3 of 5 START test unique_stg_velonet__trips_ride_id ......................... [RUN]",
            "2 of 5 PASS not_null_stg_velonet__trips_ride_id ............................. [PASS in 1.30s]",
            "3 of 5 FAIL 212 unique_stg_velonet__trips_ride_id ........................... [FAIL 212 in 1.47s]",
            "4 of 5 SKIP relation dbt_marisol_marts.fct_rides_daily ...................... [SKIP]",
            "5 of 5 SKIP test unique_fct_rides_daily_ride_date ........................... [SKIP]", "", "Completed with 1 error and 0 warnings:", "",
            "Failure in test unique_stg_velonet__trips_ride_id (models/staging/velonet/_velonet__models.yml)",
            "  Got 212 results, configured to fail if != 0"], "Done. PASS=2 WARN=0 ERROR=1 SKIP=2 TOTAL=5"), 1),
        SH("bq query --use_legacy_sql=false --format=pretty 'select ride_id, _file_name, count(*) n from `pedala-analytics.dbt_marisol_staging.stg_velonet__trips` "
           "where ride_id in (select ride_id from `pedala-analytics.dbt_marisol_staging.stg_velonet__trips` group by 1 having count(*) > 1) group by 1, 2 "
           "order by 1, 2 limit 6'", DUP_QUERY_OUT),
        A("The 212 duplicates each appear in two consecutive files: Velonet's nightly export overlaps the previous one by a couple of hours, so late rides "
          "come twice now that we've loaded two nights. I'll de-duplicate in staging and keep the row from the newest file."),
        ED("models/staging/velonet/stg_velonet__trips.sql", "    from source\n)\n\nselect * from renamed",
           "    from source\n),\n\ndeduplicated as (\n    -- Velonet exports overlap the previous night's file: keep the newest copy of a ride\n"
           "    select * from renamed\n    qualify row_number() over (partition by ride_id order by _file_name desc) = 1\n)\n\nselect * from deduplicated"),
        SH("dbt build --select +fct_rides_daily", dbt_out("10:19:02", [
            "1 of 5 OK created sql table model dbt_marisol_staging.stg_velonet__trips .... [CREATE TABLE (36.9k rows, 3.2 MiB processed) in 3.44s]",
            "2 of 5 PASS not_null_stg_velonet__trips_ride_id ............................. [PASS in 1.22s]",
            "3 of 5 PASS unique_stg_velonet__trips_ride_id ............................... [PASS in 1.39s]",
            "4 of 5 OK created sql table model dbt_marisol_marts.fct_rides_daily ......... [CREATE TABLE (3.0 rows, 1.1 MiB processed) in 3.02s]",
            "5 of 5 PASS unique_fct_rides_daily_ride_date ................................ [PASS in 1.18s]"], "Done. PASS=5 WARN=0 ERROR=0 SKIP=0 TOTAL=5")),
        A("All green. `fct_rides_daily` has one row per Lisbon day (rides, e-bike rides, distance, active stations); `stg_velonet__trips` now drops the "
          "overlapping copies with a `qualify row_number()`."),
        U("Nice detective work. What does qualify actually do? I've never used it."),
        A("`QUALIFY` filters on the result of a window function, the way `HAVING` filters on an aggregate. Without it you'd compute `row_number()` in a "
          "CTE and filter in the next select; BigQuery lets you do it in one step."),
        U("Ha, neat. Ok that's me for today, thanks!"),
    ])
    m4 = Session("codex", "09:45", steps=[
        U("Stations today. The list comes from seeds/stations.csv. Tiago maintains that file — he's the ops lead at Pedala and the only person who knows "
          "which docks really exist. Don't edit the seed yourself; if something's wrong with it, write it down and I'll pass it on to him."),
        SH("head -5 seeds/stations.csv && wc -l seeds/stations.csv", STATIONS_HEAD + "\n187 seeds/stations.csv"),
        WR("models/marts/dim_stations.sql", "with stations as (\n    select * from {{ ref('stations') }}\n)\n\nselect\n    station_id,\n    name,\n"
           "    parish,\n    docks,\n    st_geogpoint(lon, lat) as location,\n    opened_on\nfrom stations"),
        ED("models/marts/_marts__models.yml", "      - name: ride_date\n        tests: [unique, not_null]",
           "      - name: ride_date\n        tests: [unique, not_null]\n  - name: dim_stations\n    description: One row per Pedala dock station, from Tiago's seed.\n"
           "    columns:\n      - name: station_id\n        tests: [unique, not_null]"),
        ED("models/staging/velonet/_velonet__models.yml", "        tests: [unique, not_null]",
           "        tests: [unique, not_null]\n      - name: start_station_id\n        tests:\n"
           "          - relationships: {to: ref('dim_stations'), field: station_id}"),
        SH("dbt build --select stations dim_stations stg_velonet__trips", dbt_out("09:52:40", [
            "1 of 6 OK loaded seed file dbt_marisol_seeds.stations ...................... [INSERT 186 in 2.71s]",
            "2 of 6 OK created sql table model dbt_marisol_marts.dim_stations ........... [CREATE TABLE (186.0 rows, 12.4 KiB processed) in 2.90s]",
            "3 of 6 PASS unique_dim_stations_station_id .................................. [PASS in 1.20s]",
            "4 of 6 PASS not_null_dim_stations_station_id ................................ [PASS in 1.11s]",
            "5 of 6 OK created sql table model dbt_marisol_staging.stg_velonet__trips .... [CREATE TABLE (55.3k rows, 4.9 MiB processed) in 3.37s]",
            "6 of 6 FAIL 3 relationships_stg_velonet__trips_start_station_id__station_id__ref_dim_stations_  [FAIL 3 in 1.64s]", "",
            "Failure in test relationships_stg_velonet__trips_start_station_id__station_id__ref_dim_stations_ (models/staging/velonet/_velonet__models.yml)",
            "  Got 3 results, configured to fail if != 0"], "Done. PASS=5 WARN=0 ERROR=1 SKIP=0 TOTAL=6"), 1),
        SH("dbt show --inline \"select distinct start_station_id from {{ ref('stg_velonet__trips') }} where start_station_id not in (select station_id from "
           "{{ ref('stations') }})\"", "Previewing inline node:\n| start_station_id |\n| ---------------- |\n|              418 |\n|              422 |\n|              431 |"),
        A("Rides start at three stations that aren't in the seed: **418, 422, 431**. I haven't touched `seeds/stations.csv`; here's the list for Tiago."),
        U("Ah, those are the new Parque das Nações docks. I'll ping him. Meanwhile, the Python bit that works out straight-line trip distance: write it "
          "with pandas like the rest of the assets, please. I know polars is fashionable, but pandas only, no polars, until the team agrees otherwise."),
        WR("millrace_orchestration/assets/distance.py", DISTANCE_PY),
        WR("tests/test_distance.py", "import pandas as pd\nimport pytest\n\nfrom millrace_orchestration.assets.distance import haversine_km\n\n\n"
           "def test_same_point_is_zero():\n    df = pd.DataFrame({\"start_lat\": [38.7], \"start_lon\": [-9.1], \"end_lat\": [38.7], \"end_lon\": [-9.1]})\n"
           "    assert haversine_km(df).iloc[0] == 0\n\n\ndef test_cais_to_saldanha():\n    df = pd.DataFrame({\"start_lat\": [38.70581], \"start_lon\": [-9.14432], "
           "\"end_lat\": [38.73432], \"end_lon\": [-9.14498]})\n    assert haversine_km(df).iloc[0] == pytest.approx(3.17, abs=0.01)\n"),
        SH("make test", "uv run pytest -q\n....\n4 passed in 0.61s"),
        A("`haversine_km()` is in `assets/distance.py`, in pandas, with tests; all 4 pass."),
        U("ok great"),
    ])
    m5 = Session("claude", "16:30", title="Daily schedule for millrace_daily", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("Let's get it on a schedule. The daily job should run at 04:30 Lisbon time — Velonet's file is on the SFTP by 04:00."),
        RD("millrace_orchestration/definitions.py", DEFINITIONS_PY),
        RD("docs/RUNBOOK.md", RUNBOOK_OLD),
        A("Heads-up: `docs/RUNBOOK.md` (last reviewed March 2024) still describes an Airflow/Cloud Composer setup, which clearly isn't what runs now — I'm "
          "ignoring it. Adding the schedule to `definitions.py`."),
        ED("millrace_orchestration/definitions.py", "daily_job = define_asset_job(\"millrace_daily\", selection=\"*\")",
           "daily_job = define_asset_job(\"millrace_daily\", selection=\"*\")\ndaily_schedule = ScheduleDefinition(\n    job=daily_job,\n"
           "    cron_schedule=\"30 4 * * *\",\n    execution_timezone=\"Europe/Lisbon\",\n)"),
        SH("dagster definitions validate -m millrace_orchestration", "2026-11-04 16:34:10 +0000 - dagster - INFO - Loading code location "
           "millrace_orchestration...\n2026-11-04 16:34:13 +0000 - dagster - INFO - Validation successful for code location millrace_orchestration."),
        COMPACT(MILL_COMPACT),
        U("Right, commit everything from today. Commit messages: the ticket id first, then a short imperative summary — like `DATA-212 Add station "
          "dimension` — please. Today's ticket is DATA-214."),
        SH("git add -A && git commit -q -m 'DATA-214 Add station dimension, distance helper and daily schedule' && git log --oneline -3",
           "c81f04e DATA-214 Add station dimension, distance helper and daily schedule\n5be2a90 DATA-209 Add fct_rides_daily\n0d41c7a DATA-207 Load Velonet trips"),
        A("Committed as `c81f04e DATA-214 Add station dimension, distance helper and daily schedule`."),
        U("Honestly, Dagster's UI is lovely but their docs are a maze. Took me an hour to find the schedule timezone thing last month."),
        A("They are sprawling — the API reference and the guides often describe the same thing differently. Glad it's working now."),
    ])
    m6 = Session("codex", "11:05", steps=[
        U("Velonet added a second feed: dock_status, an hourly snapshot of every dock. I loaded the raw table already, but the staging model I started "
          "gives rubbish — half the snapshot times come out months in the future and some rows just fail. Can you look?"),
        MEM("velonet date format parsing", [("transcripts/{s2}.md#L22", "macros/parse_velonet_ts.sql: parse_datetime('%d/%m/%Y %H:%M', …) then "
                                             "timestamp(…, 'Europe/Lisbon'), so the stored value is UTC"),
                                            ("transcripts/{s2}.md#L11", "BigQuery can't cast `27/10/2026 23:58`: Velonet writes dates day-first")]),
        RD("models/staging/velonet/stg_velonet__dock_status.sql", "with source as (\n    select * from {{ source('velonet', 'dock_status') }}\n)\n\n"
           "select\n    cast(station_id as int64) as station_id,\n    parse_timestamp('%m/%d/%Y %H:%M', snapshot_at) as snapshot_at,\n"
           "    cast(bikes_available as int64) as bikes_available,\n    cast(docks_available as int64) as docks_available\nfrom source"),
        A("Same trap as the trips feed: Velonet's dates are day-first, and this model parses them month-first (`%m/%d/%Y`). `05/11/2026` becomes 11 May, "
          "and anything with a day above 12 fails. It also ignores that the times are Lisbon local. The `parse_velonet_ts` macro already handles both."),
        ED("models/staging/velonet/stg_velonet__dock_status.sql", "    parse_timestamp('%m/%d/%Y %H:%M', snapshot_at) as snapshot_at,",
           "    {{ parse_velonet_ts('snapshot_at') }} as snapshot_at,"),
        SH("dbt build --select stg_velonet__dock_status", dbt_out("11:14:26", [
            "1 of 3 OK created sql table model dbt_marisol_staging.stg_velonet__dock_status  [CREATE TABLE (44.6k rows, 2.0 MiB processed) in 3.12s]",
            "2 of 3 PASS not_null_stg_velonet__dock_status_snapshot_key .................. [PASS in 1.08s]",
            "3 of 3 PASS unique_stg_velonet__dock_status_snapshot_key .................... [PASS in 1.21s]"], "Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3")),
        U("Same thing as last week then, good. Oh, and so it's written down somewhere: prod only ever gets built by Dagster in the cloud deployment. Never run "
          "dbt with --target prod from a laptop — mine included."),
        A("Noted: local work only against the `dev` target; prod is Dagster's job."),
        U("Can you restart dagster so I can see the new asset? Remember it's on 3070, not the default port."),
        SH("make dev", DAGSTER_UP.format(day="05", hm="11:19", pid="70418")),
        A("Up at http://127.0.0.1:3070 — `stg_velonet__dock_status` shows in the velonet group next to the trips."),
    ])
    m7 = Session("claude", "09:30", title="Move the Velonet loader from SFTP to S3", steps=[
        U("Big news from Velonet: they're switching off the SFTP. As of today the exports land in an S3 bucket instead — s3://velonet-exports-eu/pedala/, "
          "region eu-west-1. The keys are in Doppler like before, same project: VELONET_AWS_ACCESS_KEY_ID and VELONET_AWS_SECRET_ACCESS_KEY. Same rule as "
          "always, don't dump them in the terminal. Can you switch the loader over?"),
        MEM("velonet sftp loader credentials", [("transcripts/{s1}.md#L20", "Velonet — the dock vendor — drops a CSV of the previous day's rides on their "
                                                 "SFTP every night: sftp.velonet.pt, folder /exports/pedala.")]),
        RD("millrace_orchestration/assets/velonet.py", VELONET_SFTP_PY.replace(
            "    df = pd.read_csv(io.BytesIO(body), dtype=str)",
            "    # Velonet exports: ';' separated, decimal commas (2,7)\n    df = pd.read_csv(io.BytesIO(body), sep=\";\", decimal=\",\", dtype={\"distance_km\": float}).astype({\"ride_id\": str})")),
        ED("millrace_orchestration/assets/velonet.py", "import pandas as pd\nimport paramiko\n", "import boto3\nimport pandas as pd\n"),
        ED("millrace_orchestration/assets/velonet.py", SFTP_FETCH, "BUCKET = \"velonet-exports-eu\"\n\n\n" + S3_LOADER),
        ED("millrace_orchestration/assets/velonet.py", "    # Velonet exports: ';' separated, decimal commas (2,7)\n"
           "    df = pd.read_csv(io.BytesIO(body), sep=\";\", decimal=\",\", dtype={\"distance_km\": float}).astype({\"ride_id\": str})",
           "    df = parse_export(body)"),
        ED("millrace_orchestration/assets/velonet.py", "@asset(group_name=\"velonet\", compute_kind=\"python\")",
           "def parse_export(body: bytes) -> pd.DataFrame:\n    return pd.read_csv(io.BytesIO(body), sep=\";\", dtype=str)\n\n\n"
           "@asset(group_name=\"velonet\", compute_kind=\"python\")"),
        SH("uv add boto3", "Resolved 142 packages in 1.21s\nPrepared 3 packages in 402ms\nInstalled 3 packages in 11ms\n + boto3==1.35.54\n + botocore==1.35.54\n"
           " + s3transfer==0.10.3"),
        SH("doppler run -p millrace -c prd -- dagster asset materialize --select raw_velonet_trips -m millrace_orchestration", S3_ACCESS_DENIED, 1),
        WEB("https://repost.aws/knowledge-center/s3-access-denied-listobjects-sync", "Why do I get Access Denied on ListObjectsV2?\n\n- The IAM policy "
            "must allow s3:ListBucket on the bucket ARN (not the object ARN).\n- If the policy has a Condition on s3:prefix, list requests must pass a "
            "matching Prefix.\n- Quick fix some users report: attach AmazonS3FullAccess to the user."),
        A("Velonet's reader user can't list the whole bucket. That usually means the policy only allows `s3:ListBucket` with an `s3:prefix` condition — "
          "i.e. only under `pedala/`. We can't change their IAM, but we don't need to: the loader should ask for `Prefix=\"pedala/\"`."),
        ED("millrace_orchestration/assets/velonet.py", "    listing = s3.list_objects_v2(Bucket=BUCKET)",
           "    listing = s3.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX)  # Velonet only grants listing under pedala/"),
        ED("millrace_orchestration/assets/velonet.py", "BUCKET = \"velonet-exports-eu\"", "BUCKET = \"velonet-exports-eu\"\nPREFIX = \"pedala/\""),
        SH("doppler run -p millrace -c prd -- dagster asset materialize --select raw_velonet_trips -m millrace_orchestration",
           MATERIALIZE_OK.format(day="06", hm="10:21", run="5c0aa7f1-31e2-4d8a-b6c5-9e4f7d20c611", pid="62013", asset="raw_velonet_trips",
                                 msg="loaded 17640 rows from trips_2026-11-05.csv")),
        U("Nice. Since the S3 drop comes later — they said around half five — move the schedule to 06:15. Also, change of policy: the team voted yesterday "
          "and we're going with polars after all. New Python code gets written in polars from now on; leave the old pandas code alone unless you're "
          "changing it anyway."),
        ED("millrace_orchestration/definitions.py", "    cron_schedule=\"30 4 * * *\",", "    cron_schedule=\"15 6 * * *\",  # Velonet's S3 drop lands ~05:30"),
        A("Done:\n- loader reads `s3://velonet-exports-eu/pedala/` (eu-west-1) with boto3, credentials from Doppler by name\n- paramiko is gone from the "
          "asset\n- `millrace_daily` now runs at 06:15 Europe/Lisbon\n- polars for new Python code from here on; `distance.py` stays pandas. Do you want "
          "me to port it?"),
        U("No, leave it, it works."),
    ])
    m8 = Session("codex", "15:00", steps=[
        U("Quick one: bump the version in pyproject to 0.4.0, I'm tagging a release later."),
        ED("pyproject.toml", "version = \"0.3.2\"", "version = \"0.4.0\""),
        A("Bumped `pyproject.toml` to 0.4.0."),
        U("Then a weekly station utilisation asset in Python — polars, as agreed. It reads fct_rides_daily for the last 7 days. And remember the BigQuery "
          "bill: dry-run the query before it runs for real; anything over ten gigs needs my OK."),
        WR("millrace_orchestration/assets/utilisation.py", UTIL_PY),
        SH(UTIL_DRY_RUN,
           "Query successfully validated. Assuming the tables are not modified, running this query will process upper bound of 13921551203 bytes of data."),
        A("The dry run says **13.9 GB** — over your limit, so I haven't run it. `fct_rides_daily` isn't partitioned, so the 7-day filter still scans the "
          "whole table. Partitioning it by `ride_date` would cut that to a few hundred MB. Shall I?"),
        U("Hm, yes. Partition fct_rides_daily by ride_date."),
        ED("models/marts/fct_rides_daily.sql", "with trips as (", "{{ config(partition_by={'field': 'ride_date', 'data_type': 'date'}) }}\n\nwith trips as ("),
        SH("dbt build --select fct_rides_daily", dbt_out("15:22:47", [
            "1 of 2 OK created sql table model dbt_marisol_marts.fct_rides_daily ......... [CREATE TABLE (1.5k rows, 4.1 GiB processed) in 6.40s]",
            "2 of 2 PASS unique_fct_rides_daily_ride_date ................................ [PASS in 1.33s]"], "Done. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2")),
        SH(UTIL_DRY_RUN,
           "Query successfully validated. Assuming the tables are not modified, running this query will process upper bound of 221470336 bytes of data."),
        A("Partitioned; the same query now dry-runs at ~221 MB. `station_utilisation_weekly` is in `assets/utilisation.py`, written in polars."),
        U("lovely. have a good weekend!"),
        A("You too — enjoy it!"),
    ])
    m9 = Session("claude", "10:20", title="Null distances since the S3 switch", steps=[
        U("Monday mystery: since Friday every ride has an empty distance. The daily chart for ride distance is flat at zero. Rides themselves look fine."),
        MEM("velonet csv format decimal", [("transcripts/{s1}.md#L34", "Yep, that's Velonet: semicolons and decimal commas, Portuguese Excel style."),
                                           ("transcripts/{s7}.md#L9", "loader reads s3://velonet-exports-eu/pedala/ (eu-west-1) with boto3")]),
        SH("bq query --use_legacy_sql=false --format=pretty 'select date(started_at, \"Europe/Lisbon\") ride_date, count(*) rides, countif(distance_km is null) "
           "null_distance from `pedala-analytics.raw_velonet.trips` where started_at >= \"2026-11-04\" group by 1 order by 1'", NULL_DIST_OUT),
        SH("git log --oneline -4 -- millrace_orchestration/assets/velonet.py",
           "e47b1d0 DATA-219 Read Velonet exports from S3\n9a2cc31 DATA-207 Load Velonet trips"),
        SH("git show e47b1d0 -- millrace_orchestration/assets/velonet.py | grep -n 'read_csv'",
           "41:-    df = pd.read_csv(io.BytesIO(body), sep=\";\", decimal=\",\", dtype={\"distance_km\": float}).astype({\"ride_id\": str})\n"
           "42:+    df = parse_export(body)\n"
           "47:+    return pd.read_csv(io.BytesIO(body), sep=\";\", dtype=str)"),
        A("Found it — my fault. When I moved the loader to S3 on Friday I pulled the CSV parsing into `parse_export()`, and the new `read_csv` call lost "
          "`decimal=\",\"`. `2,7` stays a string and the load writes NULL into the FLOAT column, for every file since Friday."),
        U("Argh. Decimal commas again — I did tell you Velonet writes them like that. Fix it, and reload Friday through Sunday."),
        ED("millrace_orchestration/assets/velonet.py", "    return pd.read_csv(io.BytesIO(body), sep=\";\", dtype=str)",
           "    # Velonet: ';' separated, decimal commas (2,7) -- keep both or distances load as NULL\n"
           "    return pd.read_csv(io.BytesIO(body), sep=\";\", decimal=\",\", dtype={\"distance_km\": float}).astype({\"ride_id\": str})"),
        WR("tests/test_velonet_parse.py", "from millrace_orchestration.assets.velonet import parse_export\n\n\ndef test_decimal_comma():\n"
           "    df = parse_export(b\"ride_id;distance_km\\nR-1;2,7\\n\")\n    assert df.loc[0, \"distance_km\"] == 2.7\n"),
        SH("make test", "uv run pytest -q\n.....\n5 passed in 0.73s"),
        SH("for d in 2026-11-06 2026-11-07 2026-11-08; do doppler run -p millrace -c prd -- dagster asset materialize --select raw_velonet_trips "
           "-m millrace_orchestration --partition $d | tail -1; done",
           "2026-11-09 10:41:16 +0000 - dagster - DEBUG - __ASSET_JOB - 2f1e... - 80122 - RUN_SUCCESS - Finished execution of run for \"__ASSET_JOB\".\n"
           "2026-11-09 10:41:49 +0000 - dagster - DEBUG - __ASSET_JOB - 6a07... - 80240 - RUN_SUCCESS - Finished execution of run for \"__ASSET_JOB\".\n"
           "2026-11-09 10:42:21 +0000 - dagster - DEBUG - __ASSET_JOB - c93b... - 80377 - RUN_SUCCESS - Finished execution of run for \"__ASSET_JOB\"."),
        U("Good. Tiago sent the corrected stations.csv this morning with the three new docks, I've committed it myself. Commit your fix — DATA-231 at the "
          "front as usual."),
        SH("git add -A && git commit -q -m 'DATA-231 Restore decimal-comma parsing in the Velonet loader' && git log --oneline -1",
           "f20c6b8 DATA-231 Restore decimal-comma parsing in the Velonet loader"),
        A("Committed `f20c6b8`. Distances for 6–8 November are reloaded, and a test now guards the decimal-comma parsing so this can't slip again."),
        U("Thanks, that was a quick one. Obrigada!"),
    ])
    m7.branch = "data-219-velonet-s3"
    return Project("millrace", MILL_CWD, "git@gitlab.com:pedala-data/millrace.git", agents, [
        Day("2026-11-02", [m1, m2], ["what port is the dagster ui on", "velonet file format quirks", "where are the vendor login details kept"]),
        Day("2026-11-03", [m3], ["how to parse velonet dates", "dbt model naming convention", "who uses the daily rides table"]),
        Day("2026-11-04", [m4, m5], ["who looks after the station list", "pandas or polars for python code", "what time does the nightly job run"]),
        Day("2026-11-05", [m6], ["dock snapshot dates in the future", "can I build prod from my machine"]),
        Day("2026-11-06", [m7, m8], ["where does velonet put the exports now", "bigquery cost limit before running a query", "dataframe library for new code"]),
        Day("2026-11-09", [m9], ["distances empty after loading", "commit message format", "when does the daily job start"]),
    ])


# ================================================================================================
# Project 2: larder, a Flutter app on Supabase with RevenueCat subscriptions (owner Kofi)
# ================================================================================================
LARDER_CWD = "/Users/kofi/dev/larder"

ANDROID_REFUSED = """Launching lib/main_dev.dart on sdk gphone64 x86 64 in debug mode...
Running Gradle task 'assembleDevDebug'...                          38.4s
✓ Built build/app/outputs/flutter-apk/app-dev-debug.apk
Installing build/app/outputs/flutter-apk/app-dev-debug.apk...        2.9s
Syncing files to device sdk gphone64 x86 64...                      71ms

Flutter run key commands.
r Hot reload. 🔥🔥🔥
R Hot restart.
q Quit (terminate the application on the device).

A Dart VM Service on sdk gphone64 x86 64 is available at: http://127.0.0.1:52144/Bq3x6fGm2lI=/
I/flutter ( 6412): supabase.supabase_flutter: INFO: ***** Supabase init completed *****
E/flutter ( 6412): [ERROR:flutter/runtime/dart_vm_initializer.cc(41)] Unhandled Exception: AuthRetryableFetchException(message: ClientException with \
SocketException: Connection refused (OS Error: Connection refused, errno = 111), address = localhost, port = 41862, uri=http://localhost:54321/auth/v1/token?\
grant_type=password, statusCode: null)
E/flutter ( 6412): #0      GotrueFetch.request (package:gotrue/src/fetch.dart:112:7)
E/flutter ( 6412): <asynchronous suspension>
E/flutter ( 6412): #1      GoTrueClient.signInWithPassword (package:gotrue/src/gotrue_client.dart:350:22)"""

ANDROID_OK = """Launching lib/main_dev.dart on sdk gphone64 x86 64 in debug mode...
Running Gradle task 'assembleDevDebug'...                          {secs}
✓ Built build/app/outputs/flutter-apk/app-dev-debug.apk
Syncing files to device sdk gphone64 x86 64...                      64ms
I/flutter ( {pid}): supabase.supabase_flutter: INFO: ***** Supabase init completed *****
I/flutter ( {pid}): auth: signed in as kofi+dev@larder.app{extra}"""

BOOTSTRAP_DART = """Future<void> bootstrap(Widget Function() builder) async {
  WidgetsFlutterBinding.ensureInitialized();
  await Supabase.initialize(
    url: const String.fromEnvironment('SUPABASE_URL'),
    anonKey: const String.fromEnvironment('SUPABASE_ANON_KEY'),
  );
  runApp(ProviderScope(child: builder()));
}"""

PANTRY_SCREEN = """class PantryListScreen extends ConsumerWidget {
  const PantryListScreen({super.key});

  @override
  Widget build(BuildContext context, WidgetRef ref) {
    final items = ref.watch(pantryItemsProvider);
    return items.when(
      data: (list) => list.isEmpty
          ? const Center(child: Text('Your pantry is empty'))
          : ListView.builder(
              itemCount: list.length,
              itemBuilder: (_, i) => PantryTile(item: list[i]),
            ),
      loading: () => const Center(child: CircularProgressIndicator()),
      error: (e, _) => ErrorView(error: e),
    );
  }
}"""

PUMP_APP = """extension PumpApp on WidgetTester {
  Future<void> pumpApp(Widget widget, {List<Override> overrides = const []}) {
    return pumpWidget(
      ProviderScope(
        overrides: overrides,
        child: MaterialApp(
          localizationsDelegates: AppLocalizations.localizationsDelegates,
          supportedLocales: AppLocalizations.supportedLocales,
          home: widget,
        ),
      ),
    );
  }
}"""

PANTRY_TEST_V1 = """import 'package:flutter/material.dart';
import 'package:flutter_test/flutter_test.dart';
import 'package:larder/features/pantry/pantry_list_screen.dart';
import 'package:larder/features/pantry/pantry_repository.dart';
import 'package:mocktail/mocktail.dart';

class MockPantryRepository extends Mock implements PantryRepository {}

void main() {
  late MockPantryRepository repo;

  setUp(() => repo = MockPantryRepository());

  testWidgets('shows the empty state when the pantry has no items', (tester) async {
    when(() => repo.watchItems()).thenAnswer((_) => Stream.value(const []));
    await tester.pumpWidget(const MaterialApp(home: PantryListScreen()));
    await tester.pumpAndSettle();
    expect(find.text('Your pantry is empty'), findsOneWidget);
  });
}"""

NO_PROVIDER_SCOPE = """00:02 +0: loading /Users/kofi/dev/larder/test/features/pantry/pantry_list_screen_test.dart
══╡ EXCEPTION CAUGHT BY WIDGETS LIBRARY ╞═══════════════════════════════════════════════════════════
The following StateError was thrown building PantryListScreen(dirty):
Bad state: No ProviderScope found

The relevant error-causing widget was:
  PantryListScreen
  PantryListScreen:file:///Users/kofi/dev/larder/test/features/pantry/pantry_list_screen_test.dart:17:50
════════════════════════════════════════════════════════════════════════════════════════════════════
00:02 +0 -1: PantryListScreen shows the empty state when the pantry has no items [E]
  Test failed. See exception logs above.
  The test description was:
    shows the empty state when the pantry has no items

00:02 +0 -1: Some tests failed."""

POD_FAIL = """Running pod install...                                             2,418ms
CocoaPods' output:
↳
    Preparing

    Analyzing dependencies

    Inspecting targets to integrate
      Using `ARCHS` setting to build architectures of target `Pods-Runner`: (``)

    Fetching external sources
    -> Fetching podspec for `Flutter` from `Flutter`
    -> Fetching podspec for `purchases_flutter` from `.symlinks/plugins/purchases_flutter/ios`
    -> Fetching podspec for `supabase_flutter` from `.symlinks/plugins/supabase_flutter/ios`

    Resolving dependencies of `Podfile`
      CDN: trunk Relative path: CocoaPods-version.yml exists! Returning local because checking is only performed in repo update
    [!] CocoaPods could not find compatible versions for pod "PurchasesHybridCommon":
      In Podfile:
        purchases_flutter (from `.symlinks/plugins/purchases_flutter/ios`) was resolved to 8.2.1, which depends on
          PurchasesHybridCommon (= 13.9.0)

    Specs satisfying the `PurchasesHybridCommon (= 13.9.0)` dependency were found, but they required a higher minimum deployment target.

Error output from CocoaPods:
↳
    [!] Automatically assigning platform `iOS` with version `12.0` on target `Runner` because no platform was specified. Please specify a platform for \
this target in your Podfile. See `https://guides.cocoapods.org/syntax/podfile.html#platform`.

Error running pod install
Error launching application on iPhone 16."""

AAR_FAIL = """FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:checkStgReleaseAarMetadata'.
> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckAarMetadataWorkAction
   > 1 issue was found when checking AAR metadata:

       1.  Dependency 'androidx.browser:browser:1.8.0' requires libraries and applications that
           depend on it to compile against version 34 or later of the
           Android APIs.

           :app is currently compiled against android-33.

           Recommended action: Update this project to use a newer compileSdk
           of at least 34, for example 34.

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 1m 52s
Build step 'Flutter build aab' failed with exit code 1"""

LARDER_COMPACT = """Analysis:
Kofi asked for the paywall screen. I added a named GoRoute 'paywall' (path /paywall) in lib/router.dart, wrote lib/features/paywall/paywall_screen.dart reading \
offerings from RevenueCat through paywallOfferingsProvider, and put its strings (paywallTitle, paywallRestore, paywallCta) into lib/l10n/app_en.arb. flutter analyze \
first reported an unused local variable and a prefer_const_constructors info; both fixed, then `dart format .` and `flutter analyze` were clean.

Summary:
1. Primary Request and Intent: paywall screen for the Larder subscription, reached via go_router.
2. Key Technical Concepts: go_router named routes (context.pushNamed), Riverpod AsyncValue, RevenueCat Offerings, ARB localisation.
3. Files and Code Sections: lib/router.dart, lib/features/paywall/paywall_screen.dart, lib/l10n/app_en.arb.
4. Errors and fixes: unused_local_variable 'offering' (paywall_screen.dart:41) -> removed; prefer_const_constructors -> added const.
5. Pending Tasks: commit.
6. User preferences noted: named routes only, no Navigator.push; widget tests with mocktail; user-facing strings in ARB files; never commit env/*.json; \
don't write Supabase migrations (Jonas owns them)."""


def larder() -> Project:
    agents = ("# Larder mobile\n- Flutter app; flavors dev / stg / prod, entrypoints lib/main_<flavor>.dart.\n- Run `flutter test` before committing.\n"
              "- Generated code (*.g.dart, *.freezed.dart) is not edited by hand.")
    k1 = Session("codex", "09:05", steps=[
        U("Hey! This is Larder, our pantry and meal-planning app. Flutter 3.24 on Dart 3.5, Riverpod for state, go_router for navigation, Supabase as the "
          "backend. Three flavors — dev, stg and prod. The bundle id is app.larder.mobile, with .dev or .stg tacked on for the non-prod ones, and each has "
          "its own entrypoint, lib/main_dev.dart and so on. Keys come in through --dart-define-from-file=env/<flavor>.json. First thing: the dev flavor on "
          "the Android emulator — login just spins forever."),
        MEM("larder app notes", []),
        SH("flutter run --flavor dev -t lib/main_dev.dart --dart-define-from-file=env/dev.json -d emulator-5554", ANDROID_REFUSED, 1),
        SH("grep -n SUPABASE_URL env/dev.json", "2:  \"SUPABASE_URL\": \"http://localhost:54321\","),
        A("The app is trying `http://localhost:54321` (the local Supabase from `supabase start`). On the Android emulator `localhost` is the emulator "
          "itself, not your Mac — the host is reachable as `10.0.2.2`. The iOS simulator shares the Mac's network, which is why it works there. I can "
          "rewrite the URL for Android at start-up rather than keeping two env files."),
        U("Yes, do that — leave env/dev.json as it is, the simulator is happy with localhost."),
        ED("lib/bootstrap.dart", "    url: const String.fromEnvironment('SUPABASE_URL'),",
           "    // The Android emulator reaches the host's localhost as 10.0.2.2.\n"
           "    url: Platform.isAndroid\n        ? const String.fromEnvironment('SUPABASE_URL').replaceFirst('localhost', '10.0.2.2')\n"
           "        : const String.fromEnvironment('SUPABASE_URL'),"),
        SH("flutter run --flavor dev -t lib/main_dev.dart --dart-define-from-file=env/dev.json -d emulator-5554",
           ANDROID_OK.format(secs="21.7s", pid="6630", extra="")),
        A("Login works on the emulator now: `bootstrap.dart` swaps `localhost` for `10.0.2.2` on Android only."),
        U("Sweet. For the record, where the real keys live: env/*.json is gitignored, and the actual values for stg and prod are in Bitwarden — org Larder, "
          "collection Mobile. Never commit an env file, whatever happens."),
        SH("git check-ignore -v env/prod.json env/stg.json", ".gitignore:14:env/*.json\tenv/prod.json\n.gitignore:14:env/*.json\tenv/stg.json"),
        A("Confirmed both are ignored by `.gitignore` line 14. I won't commit or print any env file."),
    ])
    k2 = Session("claude", "14:20", title="Widget test for the empty pantry", steps=[
        U("Can you add a widget test for the empty state of PantryListScreen? We write widget tests with mocktail, not mockito — no codegen for mocks, please.",
          reminder="The user opened the file /Users/kofi/dev/larder/lib/features/pantry/pantry_list_screen.dart in the IDE. This may or may not be related to "
                   "the current task."),
        RD("lib/features/pantry/pantry_list_screen.dart", PANTRY_SCREEN),
        WR("test/features/pantry/pantry_list_screen_test.dart", PANTRY_TEST_V1),
        SH("flutter test test/features/pantry", NO_PROVIDER_SCOPE, 1),
        RD("test/helpers/pump_app.dart", PUMP_APP),
        A("The screen is a `ConsumerWidget`, so it needs a `ProviderScope` above it. There's already a helper for that — `tester.pumpApp()` in "
          "`test/helpers/pump_app.dart` wraps the widget in `ProviderScope` + `MaterialApp` with the localisation delegates. I'll use it and override "
          "the repository provider with the mock."),
        ED("test/features/pantry/pantry_list_screen_test.dart", "    await tester.pumpWidget(const MaterialApp(home: PantryListScreen()));",
           "    await tester.pumpApp(\n      const PantryListScreen(),\n      overrides: [pantryRepositoryProvider.overrideWithValue(repo)],\n    );"),
        SH("flutter test test/features/pantry", "00:03 +1: All tests passed!"),
        U("Nice. While you're in there — 'Your pantry is empty' is hard-coded. From now on all user-facing text goes in the ARB files (lib/l10n/app_en.arb), "
          "no string literals in widgets. Portuguese and German are coming later this year."),
        ED("lib/l10n/app_en.arb", "  \"appTitle\": \"Larder\",", "  \"appTitle\": \"Larder\",\n  \"pantryEmpty\": \"Your pantry is empty\",\n"
           "  \"@pantryEmpty\": {\"description\": \"Shown on the pantry list when it has no items\"},"),
        ED("lib/features/pantry/pantry_list_screen.dart", "          ? const Center(child: Text('Your pantry is empty'))",
           "          ? Center(child: Text(context.l10n.pantryEmpty))"),
        SH("flutter gen-l10n && flutter test", "00:09 +23: All tests passed!"),
        A("Moved the string to `app_en.arb` as `pantryEmpty` and the screen uses `context.l10n.pantryEmpty`; the test still finds the English text because "
          "`pumpApp` loads the real delegates. 23 tests pass."),
        U("👍 thx"),
    ])
    k3 = Session("codex", "10:10", steps=[
        U("Morning. Adding RevenueCat today — purchases_flutter — for the subscription. iOS first. We support iOS 14 and up, keep that in mind."),
        SH("flutter pub add purchases_flutter", "Resolving dependencies...\n+ purchases_flutter 8.2.1\n+ purchases_ui_flutter 8.2.1\n"
           "Changed 2 dependencies!\n7 packages have newer versions incompatible with dependency constraints.\nTry `flutter pub outdated` for more information."),
        SH("flutter run --flavor dev -t lib/main_dev.dart --dart-define-from-file=env/dev.json -d 'iPhone 16'", POD_FAIL, 1),
        SH("grep -n 'platform :ios' ios/Podfile && grep -c 'IPHONEOS_DEPLOYMENT_TARGET = 14.0' ios/Runner.xcodeproj/project.pbxproj",
           "2:# platform :ios, '12.0'\n3"),
        A("The Xcode project already targets iOS 14, but the Podfile never declared a platform (the line is commented out), so CocoaPods falls back to "
          "iOS 12 and RevenueCat's pod refuses that. Setting the Podfile to match the project:"),
        ED("ios/Podfile", "# platform :ios, '12.0'", "platform :ios, '14.0'"),
        SH("cd ios && pod install --repo-update", "Updating local specs repositories\nAnalyzing dependencies\nDownloading dependencies\n"
           "Installing PurchasesHybridCommon (13.9.0)\nInstalling RevenueCat (5.9.0)\nInstalling purchases_flutter (8.2.1)\nGenerating Pods project\n"
           "Integrating client project\nPod installation complete! There are 6 dependencies from the Podfile and 27 total pods installed."),
        SH("flutter build ios --flavor dev -t lib/main_dev.dart --dart-define-from-file=env/dev.json --no-codesign",
           "Building app.larder.mobile.dev for device (ios-release)...\nRunning pod install...                                              1,104ms\n"
           "Running Xcode build...\nXcode build done.                                           142.6s\n✓ Built build/ios/iphoneos/Runner.app (48.2MB)"),
        A("iOS builds again with `purchases_flutter` 8.2.1. The Podfile now says `platform :ios, '14.0'`, in line with the Xcode project."),
        U("Good. Heads-up for testing purchases: in Apple's sandbox a monthly subscription renews every five minutes and stops after 12 renewals, so don't "
          "be alarmed by a pile of renewals in an hour. And the entitlement needs a subscriptions table in Supabase — Jonas will do that. He's our backend "
          "dev and owns everything under supabase/migrations. Don't write migrations yourself, just tell me which columns you need."),
        A("Understood — no migrations from me. For the entitlement sync I'd need a `subscriptions` table with:\n- `user_id uuid` (FK to `auth.users`, "
          "primary key)\n- `entitlement text` (e.g. `plus`)\n- `rc_app_user_id text`\n- `updated_at timestamptz default now()`\n\nplus an RLS policy "
          "so users can only read their own row."),
        U("Perfect, I'll forward that to him."),
    ])
    k4 = Session("claude", "09:40", title="Paywall screen behind a named route", steps=[
        U("Paywall screen today. Route it through go_router — named routes only, no Navigator.push anywhere. I spent a week ripping those out last spring."),
        MEM("strings localisation arb", [("transcripts/{s2}.md#L30", "From now on all user-facing text goes in the ARB files (lib/l10n/app_en.arb), no "
                                          "string literals in widgets.")]),
        RD("lib/router.dart", "final routerProvider = Provider<GoRouter>((ref) {\n  return GoRouter(\n    initialLocation: '/pantry',\n    routes: [\n"
           "      GoRoute(name: 'pantry', path: '/pantry', builder: (_, __) => const PantryListScreen()),\n"
           "      GoRoute(name: 'planner', path: '/planner', builder: (_, __) => const PlannerScreen()),\n    ],\n  );\n});"),
        ED("lib/router.dart", "      GoRoute(name: 'planner', path: '/planner', builder: (_, __) => const PlannerScreen()),",
           "      GoRoute(name: 'planner', path: '/planner', builder: (_, __) => const PlannerScreen()),\n"
           "      GoRoute(name: 'paywall', path: '/paywall', builder: (_, __) => const PaywallScreen()),"),
        WR("lib/features/paywall/paywall_screen.dart", "class PaywallScreen extends ConsumerWidget {\n  const PaywallScreen({super.key});\n\n  @override\n"
           "  Widget build(BuildContext context, WidgetRef ref) {\n    final offerings = ref.watch(paywallOfferingsProvider);\n    final offering = "
           "offerings.valueOrNull?.current;\n    return Scaffold(\n      appBar: AppBar(title: Text(context.l10n.paywallTitle)),\n      body: offerings.when(\n"
           "        data: (o) => PackageList(packages: o.current?.availablePackages ?? []),\n        loading: () => const Center(child: "
           "CircularProgressIndicator()),\n        error: (e, _) => ErrorView(error: e),\n      ),\n    );\n  }\n}"),
        ED("lib/l10n/app_en.arb", "  \"pantryEmpty\": \"Your pantry is empty\",", "  \"pantryEmpty\": \"Your pantry is empty\",\n"
           "  \"paywallTitle\": \"Go Pantry Pro\",\n  \"paywallRestore\": \"Restore purchases\",\n  \"paywallCta\": \"Start free trial\","),
        SH("flutter analyze", "Analyzing larder...\n\nwarning • The value of the local variable 'offering' isn't used • "
           "lib/features/paywall/paywall_screen.dart:41:11 • unused_local_variable\n   info • Use 'const' with the constructor to improve performance • "
           "lib/features/paywall/package_list.dart:18:16 • prefer_const_constructors\n\n2 issues found. (ran in 3.9s)", 1),
        ED("lib/features/paywall/paywall_screen.dart", "    final offering = offerings.valueOrNull?.current;\n", ""),
        SH("dart format . && flutter analyze", "Formatted 214 files (2 changed) in 1.02 seconds.\nAnalyzing larder...\nNo issues found! (ran in 3.7s)"),
        COMPACT(LARDER_COMPACT),
        U("For the record: dart format and flutter analyze have to be clean before you tell me anything's done. You just did it, which is why I'm saying it — "
          "keep doing that."),
        A("Will do — format and analyze clean before I call anything finished."),
        U("Commit it. Commit messages: a gitmoji up front and then a short present-tense line, e.g. '✨ add paywall screen', please."),
        SH("git add -A && git commit -q -m '✨ add paywall screen' && git log --oneline -1", "8d3f2c1 ✨ add paywall screen"),
        A("Committed as `8d3f2c1 ✨ add paywall screen`."),
    ])
    k5 = Session("codex", "15:30", steps=[
        U("Weird one: on the Pixel emulator I can't log in any more — 'network error' — and the paywall never shows prices. iPhone simulator is fine. Did we "
          "break something today?"),
        MEM("android emulator login fails connection refused", [("transcripts/{s1}.md#L12", "On the Android emulator `localhost` is the emulator itself, not "
                                                                 "your Mac — the host is reachable as `10.0.2.2`."),
                                                                ("transcripts/{s1}.md#L19", "bootstrap.dart swaps localhost for 10.0.2.2 on Android only.")]),
        SH("git log --oneline -4", "b71e09a ♻️ move supabase init into a provider\n8d3f2c1 ✨ add paywall screen\n40ac9d2 ✅ pantry empty state test\n"
           "e1f7a33 🐛 reach local supabase from the android emulator"),
        SH("rg -n \"SUPABASE_URL\" lib", "lib/core/env.dart:4:  static const supabaseUrl = String.fromEnvironment('SUPABASE_URL');\n"
           "lib/core/supabase_provider.dart:11:    url: Env.supabaseUrl,"),
        A("It's the emulator/localhost problem from Monday again. Jonas's commit `b71e09a` moved Supabase initialisation into "
          "`lib/core/supabase_provider.dart`, which reads `Env.supabaseUrl` directly, so the Android rewrite in `bootstrap.dart` no longer applies: the app "
          "calls `localhost:54321` inside the emulator again. The paywall fails with it because offerings are loaded after login. I'll put the rewrite in "
          "`Env` itself so every caller gets it."),
        ED("lib/core/env.dart", "  static const supabaseUrl = String.fromEnvironment('SUPABASE_URL');",
           "  static const _rawSupabaseUrl = String.fromEnvironment('SUPABASE_URL');\n\n  /// The Android emulator reaches the host machine as 10.0.2.2.\n"
           "  static String get supabaseUrl =>\n      Platform.isAndroid ? _rawSupabaseUrl.replaceFirst('localhost', '10.0.2.2') : _rawSupabaseUrl;"),
        SH("flutter run --flavor dev -t lib/main_dev.dart --dart-define-from-file=env/dev.json -d emulator-5554",
           ANDROID_OK.format(secs="19.2s", pid="7121", extra="\nI/flutter ( 7121): [Purchases] - INFO: ℹ️ Offerings fetched: default (2 packages)")),
        A("Fixed: login works on the emulator and the paywall shows both packages. The rewrite now lives in `Env.supabaseUrl`."),
        U("ugh, Android. Honestly I hate Gradle some days."),
        A("It has its moods — at least this one wasn't Gradle's fault."),
        U("Ha. Unrelated question: what's the difference between ref.watch and ref.read again? I always mix them up."),
        A("`ref.watch` subscribes: the widget or provider rebuilds when the value changes, so use it in `build`. `ref.read` takes the current value once "
          "without listening — use it in callbacks like `onPressed`."),
    ])
    k6 = Session("claude", "10:00", title="Raise iOS minimum to 15", steps=[
        U("Change of plan on iOS: we're dropping iOS 14. RevenueCat's paywall templates need iOS 15, and only 0.8% of our users are still on 14. So the "
          "minimum is iOS 15 now — update whatever needs it."),
        SH("rg -n \"14\\.0\" ios/Podfile ios/Runner.xcodeproj/project.pbxproj", "ios/Podfile:2:platform :ios, '14.0'\n"
           "ios/Runner.xcodeproj/project.pbxproj:471:\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 14.0;\n"
           "ios/Runner.xcodeproj/project.pbxproj:598:\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 14.0;\n"
           "ios/Runner.xcodeproj/project.pbxproj:649:\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 14.0;"),
        ED("ios/Podfile", "platform :ios, '14.0'", "platform :ios, '15.0'"),
        SH("sed -i '' 's/IPHONEOS_DEPLOYMENT_TARGET = 14.0;/IPHONEOS_DEPLOYMENT_TARGET = 15.0;/' ios/Runner.xcodeproj/project.pbxproj && cd ios && pod install",
           "Analyzing dependencies\nDownloading dependencies\nGenerating Pods project\nIntegrating client project\n"
           "Pod installation complete! There are 6 dependencies from the Podfile and 27 total pods installed."),
        SH("flutter build ios --flavor dev -t lib/main_dev.dart --dart-define-from-file=env/dev.json --no-codesign",
           "Building app.larder.mobile.dev for device (ios-release)...\nRunning Xcode build...\nXcode build done.                                           "
           "131.0s\n✓ Built build/ios/iphoneos/Runner.app (48.4MB)"),
        A("Minimum is now iOS 15.0 in the Podfile and all three build configurations of the Runner target; pods reinstalled and the build passes."),
        U("Also Jonas complained about the emoji in commit messages, so drop the gitmoji. Plain imperative sentence, with the Linear issue key at the end in "
          "brackets — like 'Add paywall screen (LAR-88)'. This one is LAR-97."),
        SH("git add -A && git commit -q -m 'Raise the iOS deployment target to 15.0 (LAR-97)' && git log --oneline -1",
           "3c90ab4 Raise the iOS deployment target to 15.0 (LAR-97)"),
        A("Committed `3c90ab4 Raise the iOS deployment target to 15.0 (LAR-97)`."),
        U("bump the build number to 1.6.0+58 for me, I need a TestFlight build this afternoon"),
        ED("pubspec.yaml", "version: 1.6.0+57", "version: 1.6.0+58"),
        A("`pubspec.yaml` is at 1.6.0+58."),
    ])
    k7 = Session("codex", "16:10", steps=[
        U("How releases work, so you know: Codemagic builds and uploads to TestFlight and the Play internal track whenever something is pushed to a release/* "
          "branch. The workflow is codemagic.yaml. Last night's Android build failed though, I downloaded the log to build-logs/."),
        SH("tail -24 build-logs/codemagic-android-2026-11-18.txt", AAR_FAIL),
        WEB("https://stackoverflow.com/questions/78145201/dependency-androidx-browser-1-8-0-requires-compilesdk-34", "Q: Dependency "
            "'androidx.browser:browser:1.8.0' requires compileSdk 34 (Flutter)\n\nA (41 votes): Set compileSdk = 34 in android/app/build.gradle "
            "(or flutter.compileSdkVersion on Flutter >= 3.22).\n\nA (12 votes): Run `flutter pub upgrade --major-versions`, then `flutter clean`; newer "
            "plugins pin the right versions."),
        RD("android/app/build.gradle", "android {\n    namespace = \"app.larder.mobile\"\n    compileSdk = 33\n    ndkVersion = flutter.ndkVersion\n"),
        A("`androidx.browser` 1.8.0 (pulled in by `purchases_flutter`) needs compileSdk 34 and the app compiles against 33. Two fixes people use: raise "
          "`compileSdk` to 34, or run `flutter pub upgrade --major-versions`. The first is the targeted one."),
        U("compileSdk 34, yes. But never run flutter pub upgrade across the board — we upgrade one package at a time, after reading its changelog. The last "
          "blanket upgrade broke RevenueCat for two days."),
        ED("android/app/build.gradle", "    compileSdk = 33", "    compileSdk = 34"),
        SH("flutter build appbundle --flavor stg -t lib/main_stg.dart --dart-define-from-file=env/stg.json",
           "Running Gradle task 'bundleStgRelease'...                         96.3s\n✓ Built build/app/outputs/bundle/stgRelease/app-stg-release.aab (31.4MB)"),
        A("The stg app bundle builds locally with compileSdk 34. Push it to a release branch and Codemagic should go green."),
        U("cool, cheers"),
    ])
    k8 = Session("claude", "09:30", title="Fastlane releases and restore-purchases test", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("Morning! Over the weekend we cancelled Codemagic — too pricey for two people. Releases now go out from my Mac with fastlane: `bundle exec "
          "fastlane ios beta` for TestFlight and `bundle exec fastlane android internal` for the Play internal track. The App Store Connect API key fastlane "
          "needs is in Bitwarden with the other secrets, Mobile collection. Can you delete codemagic.yaml and check the fastlane setup works?"),
        MEM("how builds reach testflight", [("transcripts/{s7}.md#L1", "Codemagic builds and uploads to TestFlight and the Play internal track whenever "
                                             "something is pushed to a release/* branch.")]),
        SH("git rm -q codemagic.yaml && bundle exec fastlane lanes", "Could not find gem 'fastlane (~> 2.225)' in locally installed gems.\n\n"
           "Run `bundle install` to install missing gems.", 7),
        SH("bundle install", "Fetching gem metadata from https://rubygems.org/.........\nResolving dependencies...\nFetching fastlane 2.225.0\n"
           "Installing fastlane 2.225.0\nBundle complete! 2 Gemfile dependencies, 71 gems now installed.\nUse `bundle info [gemname]` to see where a "
           "bundled gem is installed."),
        SH("bundle exec fastlane lanes", "[✔] 🚀\n--------- ios---------\n----- fastlane ios beta\nBuild the prod flavor and upload it to TestFlight\n\n"
           "--------- android---------\n----- fastlane android internal\nBuild the prod app bundle and upload it to the Play internal track\n\n"
           "Execute using `fastlane [lane]`"),
        A("`codemagic.yaml` is removed and fastlane resolves after a `bundle install`: `ios beta` and `android internal` are both there."),
        U("Now a test for the restore-purchases button on the paywall. And a reminder, because someone slipped a mockito import into a PR last week: mocks "
          "are mocktail here. Only mocktail."),
        WR("test/features/paywall/restore_button_test.dart", "import 'package:flutter_test/flutter_test.dart';\nimport 'package:mocktail/mocktail.dart';\n\n"
           "import '../../helpers/pump_app.dart';\n\nclass MockPurchasesService extends Mock implements PurchasesService {}\n\nvoid main() {\n"
           "  testWidgets('restore calls the service and shows a snackbar', (tester) async {\n    final service = MockPurchasesService();\n"
           "    when(service.restore).thenAnswer((_) async => const RestoreResult.restored());\n    await tester.pumpApp(const RestoreButton(), "
           "overrides: [purchasesServiceProvider.overrideWithValue(service)]);\n    await tester.tap(find.text('Restore purchases'));\n"
           "    await tester.pumpAndSettle();\n    verify(service.restore).called(1);\n  });\n}"),
        SH("flutter test test/features/paywall", "00:04 +3: All tests passed!"),
        U("And the entitlement check needs an expires_at column on subscriptions. Same as before: hands off supabase/migrations, just draft me a message "
          "for Jonas."),
        A("Here's a draft:\n\n> Hi Jonas — for the entitlement check the app needs `subscriptions.expires_at timestamptz null` (RevenueCat's expiration "
          "date for the active entitlement; null for lifetime). Could you add it in a migration? No other changes needed. Thanks!"),
        U("great, sent"),
    ])
    k9 = Session("codex", "14:00", steps=[
        U("Last bit for today: marketing renamed the subscription, so 'Pantry Pro' becomes 'Larder Plus' on the paywall. Just the strings."),
        SH("rg -n \"Pantry Pro\" lib", "lib/l10n/app_en.arb:9:  \"paywallTitle\": \"Go Pantry Pro\","),
        ED("lib/l10n/app_en.arb", "  \"paywallTitle\": \"Go Pantry Pro\",", "  \"paywallTitle\": \"Go Larder Plus\","),
        SH("dart format --set-exit-if-changed . && flutter analyze", "Formatted 216 files (0 changed) in 0.98 seconds.\nAnalyzing larder...\n\n"
           "   info • Don't use 'BuildContext's across async gaps • lib/features/paywall/restore_button.dart:33:7 • use_build_context_synchronously\n\n"
           "1 issue found. (ran in 3.8s)", 1),
        ED("lib/features/paywall/restore_button.dart", "        final result = await ref.read(purchasesServiceProvider).restore();\n",
           "        final result = await ref.read(purchasesServiceProvider).restore();\n        if (!context.mounted) return;\n"),
        SH("dart format --set-exit-if-changed . && flutter analyze && flutter test", "Formatted 216 files (0 changed) in 0.97 seconds.\nAnalyzing larder...\n"
           "No issues found! (ran in 3.6s)\n00:14 +41: All tests passed!"),
        U("Commit it — you remember the message format by now, right?"),
        SH("git add -A && git commit -q -m 'Rename Pantry Pro to Larder Plus on the paywall (LAR-104)' && git log --oneline -1",
           "a5d2e77 Rename Pantry Pro to Larder Plus on the paywall (LAR-104)"),
        A("Committed `a5d2e77 Rename Pantry Pro to Larder Plus on the paywall (LAR-104)` — no gitmoji, issue key at the end. Format, analyze and all 41 "
          "tests were clean first (I also fixed a `use_build_context_synchronously` info in `restore_button.dart`)."),
        U("Perfect. Thanks for today, this was a good week."),
        A("It was — enjoy the evening!"),
    ])
    k4.branch = "feat/paywall"
    return Project("larder", LARDER_CWD, "https://github.com/larder-app/larder-mobile.git", agents, [
        Day("2026-11-16", [k1, k2], ["android emulator cannot reach the local backend", "where are the production keys stored", "app flavor names and bundle ids"]),
        Day("2026-11-17", [k3], ["mocking library for widget tests", "oldest iOS version we support", "who makes database schema changes"]),
        Day("2026-11-18", [k4, k5], ["how should screens navigate", "commit message style", "pixel emulator login network error"]),
        Day("2026-11-19", [k6, k7], ["minimum ios deployment target", "how do builds get to testflight", "can I upgrade all the packages at once"]),
        Day("2026-11-23", [k8, k9], ["release process for the app", "where do user-facing strings go", "commit message format"]),
    ])


PROJECTS = (millrace, larder)


def main() -> None:
    base.write_set(PROJECTS, HERE, __doc__ or "")


if __name__ == "__main__":
    main()
