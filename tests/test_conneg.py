"""IRIs that dereference: the site `benchkg site` writes, served by Apache httpd from Debian's package on
127.0.0.1 with the .htaccess the site carries, answers a record, a kind index and the ontology with
Turtle, JSON-LD or HTML by the Accept header (303 See Other to the document), checked with curl. The
w3id.htaccess rules send the same requests to the published site."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from pyoxigraph import RdfFormat, parse

from benchkg.graph.store import build_graph
from benchkg.kernel.vocab import DEFAULT_BASE
from benchkg.publish.site import build_site
from conftest import DATA
from servers import Apache, apache_binary

pytestmark = [
    pytest.mark.external,
    pytest.mark.skipif(
        apache_binary() is None or shutil.which("curl") is None, reason="no apache2 or curl: run `make test-tools`"
    ),
]

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
TURTLE, JSONLD = "text/turtle", "application/ld+json"
PUBLISHED = "https://benchkg.example.org/pages/"
#: path under the base IRI -> what the documents about it must describe
RESOURCES = {
    "id/models/llama2-70b": DEFAULT_BASE + "id/models/llama2-70b",
    "id/models/": DEFAULT_BASE + "id/models/",
    "ontology": DEFAULT_BASE + "ontology",
}


@pytest.fixture(scope="module")
def served():
    """The site at /benchkg/ (as under w3id.org/benchkg/) and the w3id rules at /w3id/benchkg/, in a
    folder only the umask opens to the server's user (mkdtemp is 0700: opened the way a web root is)."""
    old = os.umask(0o022)
    root = Path(tempfile.mkdtemp(prefix="benchkg-www-"))
    try:
        os.chmod(root, 0o755)
        store = build_graph(DATA, persist=False).store
        build_site(store, DATA, root / "benchkg", published_at=PUBLISHED)
        (root / "w3id" / "benchkg").mkdir(parents=True)
        shutil.copyfile(root / "benchkg" / "w3id.htaccess", root / "w3id" / "benchkg" / ".htaccess")
        os.chmod(root / "w3id", 0o755)
        os.chmod(root / "w3id" / "benchkg", 0o755)
        apache = Apache(root / "httpd", root).start()
        yield apache, root
        apache.kill()
    finally:
        os.umask(old)
        shutil.rmtree(root, ignore_errors=True)


def curl(url: str, accept: str, follow: bool = True) -> dict:
    """One request with curl: status, content type, the URL it ended at, the first Location, Vary, body."""
    cmd = [
        "curl",
        "-sS",
        "-H",
        f"Accept: {accept}",
        "-D",
        "-",
        "-o",
        "/dev/stderr",
        "-w",
        "\n%{http_code}\n%{content_type}\n%{url_effective}",
        *(["-L"] if follow else []),
        url,
    ]
    done = subprocess.run(cmd, capture_output=True, timeout=30)
    headers, status, content_type, effective = done.stdout.decode().rsplit("\n", 3)
    lines = [line.split(":", 1) for line in headers.splitlines() if ":" in line]
    return {
        "status": int(status),
        "type": content_type,
        "url": effective,
        "body": done.stderr,
        "location": next((v.strip() for k, v in lines if k.lower() == "location"), None),
        "vary": [v.strip() for k, v in lines if k.lower() == "vary"],
    }


def test_the_site_is_readable_by_another_user_under_the_umask(served):
    _, root = served
    site = root / "benchkg"
    assert stat.S_IMODE(site.stat().st_mode) == 0o755
    assert stat.S_IMODE((site / "id" / "models" / "llama2-70b" / "index.ttl").stat().st_mode) == 0o644


@pytest.mark.parametrize("path", list(RESOURCES))
def test_turtle_is_negotiated(served, path):
    apache, _ = served
    first = curl(apache.url + "benchkg/" + path, TURTLE, follow=False)
    assert first["status"] == 303 and "Accept" in ", ".join(first["vary"]), (first, apache.log())
    got = curl(apache.url + "benchkg/" + path, TURTLE)
    assert got["status"] == 200 and got["type"].startswith(TURTLE), got["type"]
    assert urllib.parse.urlparse(got["url"]).path.startswith("/benchkg/")  # the rules found the site's own prefix
    subjects = {t.subject.value for t in parse(got["body"], format=RdfFormat.TURTLE)}
    assert RESOURCES[path] in subjects


@pytest.mark.parametrize("path", list(RESOURCES))
def test_jsonld_is_negotiated_and_its_context_resolves(served, path):
    apache, _ = served
    got = curl(apache.url + "benchkg/" + path, JSONLD)
    assert got["status"] == 200 and got["type"].startswith(JSONLD), got["type"]
    doc = json.loads(got["body"])
    assert RESOURCES[path] in {node["@id"] for node in doc["@graph"]}
    context = curl(urllib.parse.urljoin(got["url"], doc["@context"]), JSONLD)
    assert context["status"] == 200 and "@context" in json.loads(context["body"])


@pytest.mark.parametrize("path", list(RESOURCES))
def test_a_browser_gets_the_page(served, path):
    apache, _ = served
    got = curl(apache.url + "benchkg/" + path, BROWSER)
    assert got["status"] == 200 and got["type"].startswith("text/html"), got
    assert got["url"].endswith("index.html") and b"<html" in got["body"][:200]


def test_files_are_served_as_they_are(served):
    """A kind index's own files are not taken for a record called "index.html"; an unknown record is a 404."""
    apache, _ = served
    page = curl(apache.url + "benchkg/id/models/index.html", TURTLE, follow=False)
    assert page["status"] == 200 and page["type"].startswith("text/html")
    ttl = curl(apache.url + "benchkg/id/models/llama2-70b/index.ttl", BROWSER, follow=False)
    assert ttl["status"] == 200 and ttl["type"].startswith(TURTLE)
    missing = curl(apache.url + "benchkg/id/models/no-such-model", TURTLE)
    assert missing["status"] == 404


@pytest.mark.parametrize(
    "accept,file",
    [
        (TURTLE, "id/models/llama2-70b/index.ttl"),
        (JSONLD, "id/models/llama2-70b/index.jsonld"),
        (BROWSER, "id/models/llama2-70b/index.html"),
    ],
)
def test_the_w3id_rules_send_to_the_published_site(served, accept, file):
    apache, _ = served
    got = curl(apache.url + "w3id/benchkg/id/models/llama2-70b", accept, follow=False)
    assert (got["status"], got["location"]) == (303, PUBLISHED + file)
    ontology = curl(apache.url + "w3id/benchkg/ontology", accept, follow=False)
    assert (
        ontology["location"]
        == PUBLISHED
        + {TURTLE: "ontology/benchkg.ttl", JSONLD: "ontology/benchkg.jsonld", BROWSER: "ontology/index.html"}[accept]
    )
