"""Web-server rules that make benchkg's IRIs dereference: content negotiation for Apache httpd.

``https://w3id.org/benchkg/id/<kind>/<id>``, ``…/id/<kind>/`` and ``…/ontology`` name things, not
files, so a request for one is answered ``303 See Other`` with the document that describes it,
chosen by the ``Accept`` header: Turtle for ``text/turtle``, JSON-LD for ``application/ld+json``,
HTML for anything else (a browser). This is the pattern of the W3C note *Best Practice Recipes
for Publishing RDF Vocabularies* (recipe 3) and of the w3id.org redirects.

Two files carry the same rules, differing only in where they send the client:

* ``.htaccess`` at the root of the site ``benchkg site`` writes, sending to the site itself
  wherever it is served (the folder's own URL path is worked out per request);
* ``w3id.htaccess``, the file to commit as ``benchkg/.htaccess`` in the w3id.org repository,
  sending to the published site (``benchkg site --published-at``).
"""

from __future__ import annotations

from benchkg.records.schema import ID_PATTERN

_ID = ID_PATTERN.pattern.strip("^$")

#: the media types a client may ask for -> the file that answers, per resource (html is the default).
MEDIA = (("text/turtle", "ttl"), ("application/ld\\+json", "jsonld"))

#: where each kind of IRI finds its documents: path pattern, the stem of its .ttl and .jsonld, its HTML
#: page (``$1``, ``$2`` the pattern's groups)
RESOURCES = (
    (f"^id/([a-z]+)/({_ID})/?$", "id/$1/$2/index", "id/$1/$2/index.html"),  # a record
    ("^id/([a-z]+)/?$", "id/$1/index", "id/$1/index.html"),  # a kind index
    ("^ontology/?$", "ontology/benchkg", "ontology/index.html"),  # the ontology (its terms are #fragments)
)

#: the site's own folder as a URL path, worked out per request (this file can be served under any prefix).
SITE_BASE = "%{ENV:BENCHKG_BASE}"


def rules(target: str) -> str:
    """The mod_rewrite rules sending each resource to its document under ``target``, an absolute
    URL ending in ``/`` or :data:`SITE_BASE`.

    >>> text = rules("https://example.org/benchkg/")
    >>> "RewriteRule ^ontology/?$ https://example.org/benchkg/ontology/benchkg.ttl [R=303,L]" in text
    True
    >>> text.count("[R=303,L]")
    9
    """
    lines = [
        "# benchkg: content negotiation (written by `benchkg site`; regenerate, do not edit)",
        "# text/turtle -> .ttl, application/ld+json -> .jsonld, anything else -> HTML; 303 See Other",
        "Options -MultiViews",
        "AddType text/turtle .ttl",
        "AddType application/ld+json .jsonld",
        "AddCharset utf-8 .ttl .jsonld .html",
        "<IfModule mod_headers.c>",
        "  Header always merge Vary Accept",
        "</IfModule>",
        "RewriteEngine On",
    ]
    if target == SITE_BASE:
        lines += [
            "# this folder's URL path, wherever the site is served: the request path minus the part matched below",
            "RewriteCond %{REQUEST_URI}::$1 ^(.*/)(.*)::\\2$",
            "RewriteRule ^(.*)$ - [E=BENCHKG_BASE:%1]",
        ]
    real_file = "RewriteCond %{REQUEST_FILENAME} !-f"  # id/models/index.html is a file, not the record "index.html"
    for pattern, stem, page in RESOURCES:
        for media, ext in MEDIA:
            lines += [
                real_file,
                f"RewriteCond %{{HTTP_ACCEPT}} {media}",
                f"RewriteRule {pattern} {target}{stem}.{ext} [R=303,L]",
            ]
        lines += [real_file, f"RewriteRule {pattern} {target}{page} [R=303,L]"]
    return "\n".join(lines) + "\n"


def site_rules() -> str:
    """The ``.htaccess`` of a site: negotiate and send to the site's own files."""
    return rules(SITE_BASE)


def w3id_rules(published_at: str) -> str:
    """The w3id.org ``benchkg/.htaccess``: negotiate and send to the site published at ``published_at``.

    >>> w3id_rules("https://benchkg.github.io/benchkg").splitlines()[-1]
    'RewriteRule ^ontology/?$ https://benchkg.github.io/benchkg/ontology/index.html [R=303,L]'
    """
    return rules(published_at.rstrip("/") + "/")
