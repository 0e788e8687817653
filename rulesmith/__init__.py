"""Rulesmith: YAML rules content to a reference site, PDF player aids and flowcharts."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("rulesmith")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
