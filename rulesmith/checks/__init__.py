"""What `rulesmith check` proves: the list of named checks (check.CHECKS), table rules
(tablerules), the source map (source_map), condensed aid wording (condensed), and the kept answer
of the last check (cache)."""
