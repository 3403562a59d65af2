"""Which file holds a test's recording: every test its own, on every file system."""

from __future__ import annotations

import itertools

import pytest

from agentkit.fakes.cli._per_test import MAX_NAME, file_name, stem_of, valid_name

# Ids a module may hold side by side, each built to meet another under a naive cleaning:
# the class left out, separators cleaned alike, case, the spawn suffix, over-long ids.
HOSTILE = [
    "test_weather",
    "TestParis::test_weather",
    "TestRome::test_weather",
    "TestParis::Inner::test_weather",
    "TestParis.test_weather",
    "test_weather[New York]",
    "test_weather[New-York]",
    "test_weather[new york]",
    "test_weather[new-york]",
    "test_weather[NEW-YORK]",
    "test_weather[New.York]",
    "test_weather[New/York]",
    "test_weather[New\\York]",
    "test_weather[New~York]",
    "test_weather[New@York]",
    "test_weather[..]",
    "test_weather[]",
    "test_weather[a]",
    "test_weather[a.2]",
    "test_weather[a@b]",
    "test_weather-a",
    "test_weather[\udcff]",
    "test_weather[Zürich]",
    "test_Weather",
    "test_weather[" + "x" * 300 + "]",
    "test_weather[" + "x" * 300 + "y]",
    "test_weather[" + "x" * 99 + "]",
    "test_weather[" + "x" * 100 + "]",
    "",
]


def _files(test_id: str) -> list[str]:
    stem = stem_of(test_id)
    return [file_name(stem, name, spawn) for name in (None, "codex", "a") for spawn in (1, 2, 10)]


def test_no_two_tests_share_a_file_even_where_case_is_ignored() -> None:
    owner: dict[str, str] = {}
    for test_id in HOSTILE:
        for name in _files(test_id):
            key = name.casefold()
            assert key not in owner, f"{test_id!r} and {owner.get(key)!r} share {name}"
            owner[key] = test_id


@pytest.mark.parametrize("test_id", HOSTILE)
def test_every_name_fits_a_file_system_and_a_shell(test_id: str) -> None:
    for name in _files(test_id):
        assert len(name.encode()) < 200  # the common limit is 255 bytes; a temporary adds some
        assert not name.startswith((".", "-"))
        assert all(c.isascii() and (c.isalnum() or c in "_.-~@") for c in name), name


def test_a_plain_name_reads_as_the_test_and_a_cleaned_one_carries_a_hash() -> None:
    assert stem_of("test_weather") == "test_weather"
    assert stem_of("test_weather[new-york]") == "test_weather-new-york"
    assert stem_of("test_class::test_weather") == "test_class.test_weather"
    paris = stem_of("TestParis::test_weather[New York]")
    readable, hashed, digest = paris.partition("~")
    assert (readable, hashed) == ("TestParis.test_weather-New-York", "~")
    assert len(digest) == 12
    # Stable: the same in every session and every release, or committed recordings get lost.
    # (The CLI guide's table shows these two.)
    assert stem_of("TestParis::test_weather") == "TestParis.test_weather~eabcf713fa9f"
    assert stem_of("test_city[New York]") == "test_city-New-York~15d6256e8f95"
    long = stem_of("test_weather[" + "x" * 300 + "]")
    assert long.startswith("test_weather-xxx")
    assert "~" in long


def test_the_suffixes_never_make_one_tests_file_anothers() -> None:
    stems = [stem_of(test_id) for test_id in HOSTILE]
    names = [
        file_name(stem, name, spawn)
        for stem, name, spawn in itertools.product(stems, (None, "b", "b2"), range(1, 13))
    ]
    assert len(set(names)) == len(names)


def test_a_recording_name_is_letters_digits_underscore_and_dash() -> None:
    assert valid_name("codex")
    assert valid_name("second-run_2")
    assert valid_name("x" * MAX_NAME)
    for bad in ("", "a.b", "a/b", "a b", "a@b", "a~b", "x" * (MAX_NAME + 1), "Zürich"):
        assert not valid_name(bad), bad
