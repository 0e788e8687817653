"""The reference site: which page shows what (layout), the pages from templates/site (pages),
the overview's play pieces (overview), the walker and the Bot turn companion's data (walker,
botturn), search, the web app, fonts, the 404 page, the generated MkDocs project and its engines
(mkdocs_config, engines), the Content-Security-Policy (csp) and the final gate (gate)."""
