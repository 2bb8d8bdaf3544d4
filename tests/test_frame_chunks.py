"""The suite's processes keep Python's freed frame-stack chunks for reuse (tests/frame_chunks.py)."""

import resource

import frame_chunks
import pytest

pytestmark = pytest.mark.skipif(not frame_chunks.needed(), reason="this Python keeps its frame-stack chunks")


def _down(n: int) -> int:
    return 0 if n == 0 else _down(n - 1) + 1


def test_calls_across_a_chunks_end_fault_in_no_new_pages():
    # Depths 0 to 399 cross at least one chunk's end (a chunk holds about 100 of these frames), each
    # depth 50 times: unmapped and mapped again at every crossing, some 50,000 page faults; kept, none.
    assert frame_chunks.installed()  # by conftest.py
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for depth in range(400):
        for _ in range(50):
            assert _down(depth) == depth
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 500
