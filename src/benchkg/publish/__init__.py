"""Publish: the graph exported, its JSON-LD context, the static linked-data site with its dataset
description and content negotiation, and the read-only SPARQL endpoint."""
