"""The config sections: dataclasses for their fields, with one shared set of methods (issue 26).

Every command imports ``clawmem.foundation.config``; a section that let ``dataclass`` compile its own
``__init__``, ``__eq__``, ``__hash__``, ``__repr__``, ``__setattr__`` and ``__delattr__`` would cost
each of them again, so each must take them from ``Section`` and behave as a frozen dataclass.
"""

from __future__ import annotations

import dataclasses

import pytest

from clawmem.foundation import config
from clawmem.foundation.config import Config, DreamConfig, SearchConfig, Section

GENERATED = ("__init__", "__eq__", "__hash__", "__repr__", "__setattr__", "__delattr__")


@pytest.mark.parametrize("cls", [Config, *config.sections().values()])
def test_every_section_takes_its_methods_from_section(cls):
    assert issubclass(cls, Section) and dataclasses.is_dataclass(cls)
    assert [name for name in GENERATED if name in vars(cls)] == []


def test_a_section_behaves_as_a_frozen_dataclass():
    default = SearchConfig()
    changed = dataclasses.replace(default, limit=3)
    assert (default.limit, changed.limit, changed.vector_weight) == (6, 3, default.vector_weight)
    assert SearchConfig() == default != changed and hash(SearchConfig()) == hash(default)
    assert default != DreamConfig() and len({default, SearchConfig(), changed}) == 2
    assert repr(config.LimitsConfig()) == "LimitsConfig(max_note_bytes=65536, max_ingest_bytes=16777216)"
    assert dataclasses.asdict(Config())["search"]["limit"] == 6
    assert Config().replace("dream", max_promotions=2).dream.max_promotions == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        default.limit = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del default.limit
    with pytest.raises(TypeError, match="unexpected keyword argument 'limt'"):
        SearchConfig(limt=3)
