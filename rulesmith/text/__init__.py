"""Content text as readers get it: the one Markdown configuration, escaping for each output
context, references and icons rendered, each Markdown text converted to HTML once and sanitized,
and that HTML placed in the site's pages and the aids as it is."""
