"""Values, typed once: the registry of field types (fieldtypes), range keys (ranges), value
references read from the data (references), the worked examples' arithmetic (expressions) and
their outcomes as printed and as the data gives them (outcomes)."""
