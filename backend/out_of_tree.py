"""The build backend: setuptools, run on a copy of the source tree.

setuptools writes `build/` and `rulesmith.egg-info/` into the folder it builds from, so
`pip install <checkout>` would change the checkout and fail in a read-only one. Every hook that
builds a wheel or an sdist (or their metadata) runs here in a temporary copy instead and writes
only into the folder pip asks for. Editable installs point into the checkout by nature, so their
hooks run in place.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from setuptools import build_meta as _setuptools

# Not part of a build: outputs, caches and environments at the top of the checkout.
_TOP_LEVEL_SKIPPED = {".git", ".venv", "site", ".build", ".cache", "schema", "build", "dist", ".pytest_cache",
                      "bench.json"}


def _copy_of_source(into: Path) -> Path:
    source = Path.cwd()

    def ignore(folder, names):
        top = Path(folder) == source
        return [n for n in names if (top and n in _TOP_LEVEL_SKIPPED) or n == "__pycache__" or n.endswith(".egg-info")]

    copy = into / "source"
    shutil.copytree(source, copy, ignore=ignore)
    return copy


def _in_copy(hook, *args, **kwargs):
    before = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="rulesmith-build-") as tmp:
        os.chdir(_copy_of_source(Path(tmp)))
        try:
            return hook(*args, **kwargs)
        finally:
            os.chdir(before)


def _absolute(path):
    return None if path is None else os.path.abspath(path)


def get_requires_for_build_wheel(config_settings=None):
    return _in_copy(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_sdist(config_settings=None):
    return _in_copy(_setuptools.get_requires_for_build_sdist, config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _in_copy(_setuptools.prepare_metadata_for_build_wheel, _absolute(metadata_directory), config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _in_copy(_setuptools.build_wheel, _absolute(wheel_directory), config_settings, _absolute(metadata_directory))


def build_sdist(sdist_directory, config_settings=None):
    return _in_copy(_setuptools.build_sdist, _absolute(sdist_directory), config_settings)


# Editable installs: in place.
get_requires_for_build_editable = _setuptools.get_requires_for_build_editable
prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable
build_editable = _setuptools.build_editable
