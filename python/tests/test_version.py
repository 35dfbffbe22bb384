"""The package's version is the project's, CMakeLists.txt's project(VERSION), which configure
checks the headers (config.hpp), the CLI and CHANGELOG.md's latest release against."""
import importlib.metadata
import pathlib
import re

import corank

ROOT = pathlib.Path(__file__).resolve().parents[2]


def project_version():
    cmake = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"^project\(corank VERSION ([0-9.]+)", cmake, re.MULTILINE).group(1)


def test_the_module_says_the_projects_version():
    assert corank.__version__ == project_version()


def test_the_installed_package_says_the_projects_version():
    assert importlib.metadata.version("corank") == project_version()
