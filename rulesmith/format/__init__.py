"""The content format, described from the model: the reference (`rulesmith format`,
content/README.md, the site's format page) and the JSON Schema for editors (schema)."""
