"""core.stats' exact sums: the same exact values as the Fractions per distinct value they replace."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from whistsim.core import stats
from whistsim.core.stats import Moments, exact_dot, exact_sums


def reference_sums(x):
    """exact_sums before exponent grouping (a Fraction per distinct value): the oracle."""
    x = np.asarray(x).ravel()
    if x.dtype == np.bool_:
        x = x.astype(np.int64)
    if x.dtype.kind == "f":
        if not np.isfinite(x).all():
            return math.nan, math.nan
        if (x == np.rint(x)).all() and (x.size == 0 or np.abs(x).max() < 2.0**31):
            x = x.astype(np.int64)
    if x.dtype.kind in "iu":
        big = int(np.abs(x.astype(np.int64)).max()) if x.size else 0
        if big < 2**31:
            step = max(1, (1 << 62) // max(big * big, 1))
            s1 = int(x.sum(dtype=np.int64))
            x64 = x.astype(np.int64)
            s2 = sum(int((x64[i : i + step] * x64[i : i + step]).sum()) for i in range(0, x.size, step))
            return s1, s2
    values, counts = np.unique(x, return_counts=True)
    fr = [Fraction(v.item()) for v in values]
    return (
        sum((f * int(c) for f, c in zip(fr, counts, strict=True)), Fraction(0)),
        sum((f * f * int(c) for f, c in zip(fr, counts, strict=True)), Fraction(0)),
    )


def reference_dot(x, y):
    """experiments.results' _exact_dot before exponent grouping: the oracle."""
    if x.dtype.kind in "iub" and y.dtype.kind in "iub":
        return int(np.dot(x.astype(object), y.astype(object))) if x.size else 0
    pairs, counts = np.unique(np.stack([np.asarray(x, np.float64), np.asarray(y, np.float64)]), axis=1,
                              return_counts=True)  # fmt: skip
    return sum(
        (Fraction(a) * Fraction(b) * int(c) for (a, b), c in zip(pairs.T, counts, strict=True)), Fraction(0)
    )


def same(a, b) -> bool:
    """The same value of the same type (a NaN for a NaN): what results/ and the reports are made of."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b and repr(a) == repr(b)


AWKWARD = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, -2.225073858507201e-308, 1.7976931348623157e308,
           -1.7976931348623157e308, 2.0**-1022, 2.0**31, -(2.0**31), 2.0**53, 2.0**53 + 2, 2.0**63, 0.1, -0.1,
           1 - 2.0**-53, -(1 - 2.0**-53), 1 / 3, 1e-300, 1e300, 0.5, 1.0, -1.0]  # fmt: skip
FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),  # subnormals, huge and tiny exponents, -0.0
    st.sampled_from(AWKWARD),
    st.integers(-(2**40), 2**40).map(float),  # integers in float dtype
    st.integers(-(10**6), 10**6).map(lambda i: i / 64),
)


@given(st.lists(FLOATS, max_size=60), st.sampled_from([np.float64, np.float32, np.float16]))
def test_float_sums_are_the_reference_values(values, dtype):
    with np.errstate(over="ignore"):  # float16 and float32 overflow to inf (NaN sums), and 2**31 in float16
        x = np.array(values, np.float64).astype(dtype)
        a, b = exact_sums(x), reference_sums(x)
    assert same(a[0], b[0]) and same(a[1], b[1]), (x, a, b)


@given(st.lists(st.one_of(FLOATS, st.sampled_from([math.nan, math.inf, -math.inf])), max_size=20))
def test_nan_and_inf_give_nan_as_before(values):
    x = np.array(values, np.float64)
    a, b = exact_sums(x), reference_sums(x)
    assert same(a[0], b[0]) and same(a[1], b[1]), (x, a, b)


INTS = st.sampled_from([np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64])


@given(INTS.flatmap(lambda dt: arrays(dt, st.integers(0, 40))))
def test_bool_and_int_sums_are_the_reference_values(x):
    a, b = exact_sums(x), reference_sums(x)
    assert same(a[0], b[0]) and same(a[1], b[1]), (x, a, b)


@given(st.lists(st.tuples(FLOATS, FLOATS), max_size=40), st.booleans())
def test_dot_is_the_reference_value(pairs, int_x):
    x = np.array([p[0] for p in pairs], np.float64)
    y = np.array([p[1] for p in pairs], np.float64)
    if int_x:  # a count against a float figure, as a rate's pair can be
        x = np.rint(np.clip(x, -(2**40), 2**40)).astype(np.int64)
    assert same(exact_dot(x, y), reference_dot(x, y))


@given(st.lists(FLOATS, min_size=1, max_size=60), st.integers(1, 9))
def test_blocks_add_up_to_the_reference_values(values, block):
    x = np.array(values, np.float64)
    saved = stats._BLOCK
    stats._BLOCK = block  # many blocks for a short column
    try:
        a, b, d = exact_sums(x), reference_sums(x), (exact_dot(x, x[::-1]), reference_dot(x, x[::-1]))
    finally:
        stats._BLOCK = saved
    assert same(a[0], b[0]) and same(a[1], b[1]) and same(*d), (x, a, b)


def test_a_column_of_several_full_blocks_of_full_mantissas():
    # every significand at its largest, of either sign, at two exponents: the blocks' sums at their
    # largest; few distinct values, so the oracle is quick
    values = np.array([1 - 2.0**-53, -(1 - 2.0**-53), (1 - 2.0**-53) * 2.0**-40, 0.75 - 2.0**-53])
    x = np.random.default_rng(5).choice(values, 2 * stats._BLOCK + 17)
    a, b = exact_sums(x), reference_sums(x)
    assert same(a[0], b[0]) and same(a[1], b[1])
    assert same(exact_dot(x, x[::-1]), reference_dot(x, x[::-1]))


def test_sums_make_a_few_fractions_not_one_per_distinct_value(monkeypatch):
    # The old way made a Fraction per distinct value (53 of 134 s of the cheating study's small run,
    # profiled); the sums now make their Fractions once, at the end.
    made = []

    class Counted(Fraction):
        def __new__(cls, *args, **kwargs):
            made.append(args)
            return super().__new__(cls, *args, **kwargs)

    monkeypatch.setattr(stats, "Fraction", Counted)
    x = np.random.default_rng(1).random(10_000)
    exact_sums(x)
    exact_dot(x, x * 3)
    assert len(made) <= 3, len(made)


def test_moments_of_floats_in_chunks_are_those_of_the_whole():
    x = np.random.default_rng(2).normal(size=3000) * 10.0 ** np.random.default_rng(3).integers(-30, 30, 3000)
    whole, parts = Moments(), Moments()
    whole.add("x", x)
    for i in range(0, x.size, 77):
        parts.add("x", x[i : i + 77])
    assert whole.s1["x"] == parts.s1["x"] == reference_sums(x)[0]
    assert whole.s2["x"] == parts.s2["x"] == reference_sums(x)[1]


def test_longdouble_is_refused_not_rounded():
    if np.dtype(np.longdouble).itemsize <= 8:
        pytest.skip("longdouble is a double here")
    with pytest.raises(TypeError):
        exact_sums(np.array([0.5, 1 / 3], np.longdouble))
