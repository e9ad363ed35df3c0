"""Every ```python block of docs/python.md runs (the docs stay true)."""

import os
import re

import pytest

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def blocks():
    if not os.path.exists(DOC):
        return []
    text = open(DOC, encoding="utf-8").read()
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


@pytest.mark.parametrize("code", blocks())
def test_block_runs(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, DOC, "exec"), {"__name__": "__doc_block__"})


def test_there_are_blocks():
    assert len(blocks()) >= 2
