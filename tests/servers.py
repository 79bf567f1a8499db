"""Real servers on 127.0.0.1 for the tests: the Oxigraph server (PyPI `oxigraph`), OpenLink Virtuoso 7.2
(Debian `virtuoso-opensource-7-bin`) and Apache httpd 2.4 (Debian `apache2`), the last two installed by
scripts/test-tools."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

OXIGRAPH = Path(sys.executable).parent / "oxigraph"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, what: str, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:  # it answers: up
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{what} did not start in {seconds:.0f} s")


class Server:
    """An `oxigraph serve` process on loopback, restartable on the same data folder."""

    def __init__(self, location: Path):
        self.location, self.port, self.proc = location, free_port(), None

    @property
    def query(self) -> str:
        return f"http://127.0.0.1:{self.port}/query"

    @property
    def update(self) -> str:
        return f"http://127.0.0.1:{self.port}/update"

    gsp = None  # benchkg guesses /store from /query

    def start(self) -> "Server":
        self.proc = subprocess.Popen(
            [
                str(OXIGRAPH),
                "serve",
                "--location",
                str(self.location),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--union-default-graph",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(f"{self.query}?query=ASK%7B%7D", "the oxigraph server", 20)
        return self

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


#: where the docs give the settings a user adds to virtuoso.ini (a fenced ``ini`` block after a marker)
STORES_DOC = Path(__file__).resolve().parents[1] / "docs" / "data-and-stores.md"

#: the smallest virtuoso.ini that serves SPARQL on loopback; the documented settings are added to it
VIRTUOSO_BASE_INI = """[Database]
DatabaseFile = virtuoso.db
ErrorLogFile = virtuoso.log
LockFile = virtuoso.lck
TransactionFile = virtuoso.trx
xa_persistent_file = virtuoso.pxa
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = virtuoso-temp.db
TransactionFile = virtuoso-temp.trx

[Parameters]
ServerPort = 127.0.0.1:{isql}
DisableUnixSocket = 1
DirsAllowed = .

[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = .
ServerThreads = 10
EnabledDavVSP = 0

[SPARQL]
"""


def documented_virtuoso_settings() -> dict[str, dict[str, str]]:
    """section -> {key: value} of the virtuoso.ini block in docs/data-and-stores.md."""
    text = STORES_DOC.read_text(encoding="utf-8")
    block = text.split("<!-- virtuoso-settings:", 1)[1].split("```ini\n", 1)[1].split("```", 1)[0]
    settings: dict[str, dict[str, str]] = {}
    section = None
    for line in block.splitlines():
        line = line.split(";", 1)[0].strip()
        if line.startswith("["):
            section = settings.setdefault(line.strip("[]"), {})
        elif "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            section[key] = value
    return settings


def virtuoso_ini(**overrides: str) -> str:
    """The test ini: the base, the documented settings, then ``overrides`` (``KEY=VALUE`` in the
    section the docs put KEY in), with ``{isql}`` and ``{http}`` left for the ports."""
    settings = documented_virtuoso_settings()
    for key, value in overrides.items():
        section = next(name for name, values in settings.items() if key in values)
        settings[section][key] = value
    lines = VIRTUOSO_BASE_INI.splitlines()
    for section, values in settings.items():
        at = lines.index(f"[{section}]") + 1
        while at < len(lines) and lines[at].strip():
            at += 1
        lines[at:at] = [f"{key} = {value}" for key, value in values.items()]
    return "\n".join(lines) + "\n"


#: what the README's stores table says to enable: SPARQL Update on /sparql and the Graph Store
#: Protocol on /sparql-graph-crud for the anonymous SPARQL user, with write access to every graph
#: (on loopback only; behind credentials anywhere else)
VIRTUOSO_GRANTS = "GRANT SPARQL_UPDATE TO \"SPARQL\"; DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);"


def virtuoso_binary() -> str | None:
    return shutil.which("virtuoso-t")


class Virtuoso:
    """A Virtuoso 7.2 server of its own (a fresh database in ``folder``) on loopback, set up as
    docs/data-and-stores.md says; ``settings`` override documented ones (``MaxQueryCostEstimationTime="400"``)."""

    def __init__(self, folder: Path, **settings: str):
        self.folder, self.isql_port, self.port, self.proc = folder, free_port(), free_port(), None
        self.granted, self.ini = False, virtuoso_ini(**settings)

    @property
    def query(self) -> str:
        return f"http://127.0.0.1:{self.port}/sparql"

    update = query

    @property
    def gsp(self) -> str:
        return f"http://127.0.0.1:{self.port}/sparql-graph-crud"

    def start(self) -> "Virtuoso":
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "virtuoso.ini").write_text(self.ini.format(isql=self.isql_port, http=self.port))
        self.proc = subprocess.Popen(
            [virtuoso_binary(), "-f", "-c", "virtuoso.ini"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(f"{self.query}?query=ASK%7B%7D", "virtuoso", 90)
        if not self.granted:  # kept in the database across restarts
            self.isql(VIRTUOSO_GRANTS)
            self.granted = True
        return self

    def isql(self, statements: str) -> str:
        done = subprocess.run(
            [shutil.which("isql-vt"), f"127.0.0.1:{self.isql_port}", "dba", "dba", f"exec={statements}"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode or "Error" in done.stdout + done.stderr:
            raise RuntimeError(f"isql: {done.stdout}{done.stderr}")
        return done.stdout

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def apache_binary() -> str | None:
    return shutil.which("apache2", path=os.environ.get("PATH", "") + ":/usr/sbin")


#: the smallest httpd.conf that serves a folder with .htaccess files on loopback, modules from Debian's package
APACHE_CONF = """ServerRoot "{folder}"
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile "{folder}/httpd.pid"
DefaultRuntimeDir "{folder}"
Mutex file:{folder} default
ErrorLog "{folder}/error.log"
LogLevel warn
{user}
LoadModule mpm_event_module {modules}/mod_mpm_event.so
LoadModule authz_core_module {modules}/mod_authz_core.so
LoadModule mime_module {modules}/mod_mime.so
LoadModule dir_module {modules}/mod_dir.so
LoadModule rewrite_module {modules}/mod_rewrite.so
LoadModule headers_module {modules}/mod_headers.so
TypesConfig /etc/mime.types
DirectoryIndex index.html
DocumentRoot "{root}"
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory "{root}">
  AllowOverride All
  Require all granted
</Directory>
"""


class Apache:
    """Apache httpd serving ``root`` on loopback with .htaccess files honoured. Run as root it serves
    as www-data, as Debian's does, so what it serves must be readable by another user."""

    def __init__(self, folder: Path, root: Path):
        self.folder, self.root, self.port, self.proc = folder, root, free_port(), None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "Apache":
        self.folder.mkdir(parents=True, exist_ok=True)
        user = "User www-data\nGroup www-data" if os.geteuid() == 0 else ""
        (self.folder / "httpd.conf").write_text(
            APACHE_CONF.format(
                folder=self.folder, port=self.port, root=self.root, user=user, modules="/usr/lib/apache2/modules"
            )
        )
        self.proc = subprocess.Popen(
            [apache_binary(), "-f", str(self.folder / "httpd.conf"), "-DFOREGROUND"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self.url, "apache2", 30)
        return self

    def log(self) -> str:
        return (self.folder / "error.log").read_text(errors="replace")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
