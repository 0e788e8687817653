"""Values, typed once, each concept in one module: the registry of field types and the one way a
value is shown (fieldtypes), the status table (status), the id rule of every kind of id (ids),
numbers read from text (numbers), addresses inside an item (addresses), range keys (ranges), value
references read from the data (references), the worked examples' arithmetic (expressions) and
their outcomes as printed and as the data gives them (outcomes)."""
