"""Rulesmith: YAML rules content to a reference site, PDF player aids and flowcharts."""

__version__ = "0.1.0"
