"""Remote SPARQL 1.1 stores: queries through SPARQLWrapper with the same binding and output as
the embedded store. Credentials come only from the environment and are never printed.
"""
from __future__ import annotations

import os

from .errors import StoreError
from .queries import Results, bound_text, find_query
from .vocab import DEFAULT_BASE


def _wrapper(endpoint: str, timeout: float):
    from SPARQLWrapper import JSON, SPARQLWrapper

    client = SPARQLWrapper(endpoint)
    client.setReturnFormat(JSON)
    client.setTimeout(int(timeout))
    client.setMethod("POST")
    token = os.environ.get("BENCHKG_TOKEN")
    user, password = os.environ.get("BENCHKG_USER"), os.environ.get("BENCHKG_PASSWORD")
    if token:
        client.addCustomHttpHeader("Authorization", f"Bearer {token}")
    elif user and password:
        client.setCredentials(user, password)
    return client


def term_from_json(binding: dict):
    """A pyoxigraph term from one SPARQL JSON results binding.

    >>> term_from_json({"type": "literal", "value": "72", "datatype": "http://www.w3.org/2001/XMLSchema#integer"})
    <Literal value=72 datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#integer>>
    """
    from pyoxigraph import BlankNode, Literal, NamedNode

    kind = binding["type"]
    if kind == "uri":
        return NamedNode(binding["value"])
    if kind == "bnode":
        return BlankNode(binding["value"])
    if "xml:lang" in binding:
        return Literal(binding["value"], language=binding["xml:lang"])
    if "datatype" in binding:
        return Literal(binding["value"], datatype=NamedNode(binding["datatype"]))
    return Literal(binding["value"])


def run_remote_sparql(endpoint: str, text: str, timeout: float = 30) -> Results:
    """Run SELECT text on a SPARQL 1.1 endpoint and return rows of pyoxigraph terms."""
    from urllib.error import HTTPError, URLError

    client = _wrapper(endpoint, timeout)
    client.setQuery(text)
    try:
        data = client.query().convert()
    except HTTPError as e:
        if e.code in (401, 403):
            raise StoreError(f"{endpoint} refused the query (HTTP {e.code}): set BENCHKG_USER and "
                             f"BENCHKG_PASSWORD, or BENCHKG_TOKEN, to credentials it accepts") from None
        raise StoreError(f"{endpoint} answered HTTP {e.code} {e.reason}") from None
    except (URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise StoreError(f"cannot reach {endpoint}: {reason}. Is the store running and the URL its query endpoint?") from None
    except Exception as e:  # SPARQLWrapper raises its own exception family for 400/404/500
        name = type(e).__name__
        raise StoreError(f"{endpoint} rejected the query ({name}): {str(e).splitlines()[0][:300]}") from None
    names = data.get("head", {}).get("vars", [])
    rows = [{k: term_from_json(v) for k, v in b.items()} for b in data.get("results", {}).get("bindings", [])]
    return Results(names, rows)


def run_remote_query(endpoint: str, name_or_file: str, params: dict[str, str] | None = None,
                     base: str = DEFAULT_BASE) -> Results:
    """Run a saved query on a remote endpoint, bound exactly as embedded.

    The store must answer queries over the union of its named graphs in its default graph
    (Oxigraph server ``--union-default-graph``; Fuseki ``tdb2:unionDefaultGraph true``).
    """
    query = find_query(name_or_file)
    return run_remote_sparql(endpoint, bound_text(query, params or {}, base))
