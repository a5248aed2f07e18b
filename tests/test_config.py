"""The config sections: frozen dataclasses from ``clawmem.foundation.records`` (issue 26).

Every command imports ``clawmem.foundation.config``; a section whose ``__init__``, ``__eq__``,
``__hash__``, ``__repr__``, ``__setattr__`` and ``__delattr__`` the standard ``dataclass`` compiled
would cost each of them again, so each takes them from ``records`` and behaves as a frozen dataclass.
"""

from __future__ import annotations

import dataclasses

import pytest

from clawmem.foundation import config, records
from clawmem.foundation.config import Config, DreamConfig, SearchConfig


@pytest.mark.parametrize("cls", [Config, *config.sections().values()])
def test_every_section_takes_its_methods_from_records(cls):
    assert dataclasses.is_dataclass(cls) and cls.__init__.__code__ is records._init(object, ()).__code__


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
