"""Every ```python block of the repository's README runs as a test (GPU blocks, those that use
CuPy or PyTorch on CUDA, skip without a GPU and both libraries)."""
import importlib.util
import pathlib

import pytest

import corank

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _blocks():
    spec = importlib.util.spec_from_file_location("readme_snippets",
                                                  ROOT / "scripts" / "readme_snippets.py")
    snippets = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(snippets)
    return snippets.blocks((ROOT / "README.md").read_text(), "python")


BLOCKS = _blocks()


@pytest.mark.parametrize("start,lines", BLOCKS, ids=[f"line{start}" for start, _ in BLOCKS])
def test_readme_block_runs(start, lines):
    source = "\n".join(lines)
    if "cupy" in source or "torch" in source:
        pytest.importorskip("cupy")
        pytest.importorskip("torch")
        if not corank.gpu_available():
            pytest.skip("no GPU")
    # Blank lines first, so that a traceback names the README's own line.
    exec(compile("\n" * (start - 1) + source, "README.md", "exec"), {})


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 2
